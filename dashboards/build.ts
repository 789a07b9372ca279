/**
 * `opgate dashboard build --out dir`: the static site (GitHub Pages, a CI artifact): the HTML shell, the client
 * bundle and every data document as JSON. The same client runs on it; it only fetches relative paths.
 *
 * Incremental: `data/stamps.json` records what each per-commit, cell and mutation-run document was computed from
 * (allDataFiles' stamps) and the code that computed it. A later build into the same folder keeps a document whose
 * stamp is unchanged (a nightly build computes the new commit's documents, not the window's again), removes the
 * documents of commits that left the window (the site holds the window, not the history) and computes the rest;
 * `full` computes everything.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHEMA_VERSION } from '../src/ci/index.ts';
import { allDataFiles, openReadOnly } from './data/index.ts';
import { clientBundle, INDEX_HTML } from './site.ts';

export interface BuildOptions {
  readonly db: string;
  readonly out: string;
  readonly repo: string | null;
  /** Compute every document, keeping nothing from an earlier build. */
  readonly full?: boolean;
}

export interface BuildReport {
  readonly files: number;
  readonly bytes: number;
  /** Documents kept from an earlier build (their stamps had not changed). */
  readonly kept: number;
  /** Documents of an earlier build removed (their commits left the window). */
  readonly removed: number;
}

const STAMPS = 'data/stamps.json';

interface Stamps {
  readonly code: string;
  readonly files: Record<string, string>;
}

/** The code that computes the documents: the store's and the dashboards' sources and the schema version. */
function codeDigest(): string {
  const h = createHash('sha256').update(`schema ${SCHEMA_VERSION}\n`);
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) h.update(`${p}\n`).update(readFileSync(p));
    }
  };
  for (const d of ['../src/ci', '.']) walk(fileURLToPath(new URL(d, import.meta.url)));
  return h.digest('hex').slice(0, 16);
}

function readStamps(out: string): Stamps | null {
  try {
    const s = JSON.parse(readFileSync(join(out, STAMPS), 'utf8')) as Stamps;
    return typeof s.code === 'string' && s.files && typeof s.files === 'object' ? s : null;
  } catch {
    return null;
  }
}

export async function buildDashboard(o: BuildOptions): Promise<BuildReport> {
  const db = openReadOnly(o.db);
  try {
    const code = codeDigest();
    const before = readStamps(o.out);
    const earlier = !o.full && before?.code === code ? before.files : {};
    const bundle = await clientBundle();
    const meta = { repo: o.repo, generatedAt: new Date().toISOString(), mode: 'static' as const };
    const write = (path: string, text: string) => {
      const to = join(o.out, path);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, text);
      return Buffer.byteLength(text);
    };
    let bytes = write('index.html', INDEX_HTML) + write('app.js', bundle.js) + write('app.css', bundle.css);
    let files = 3;
    let kept = 0;
    const stamps: Record<string, string> = {};
    // A stamped document is computed only when it is written (never when it is kept).
    for (const [path, f] of allDataFiles(db, meta)) {
      files++;
      if (f.stamp !== null) stamps[path] = f.stamp;
      if (f.stamp !== null && earlier[path] === f.stamp && existsSync(join(o.out, path))) {
        kept++;
        bytes += statSync(join(o.out, path)).size;
        continue;
      }
      bytes += write(path, JSON.stringify(f.doc()));
    }
    // What an earlier build wrote for commits, cells and runs no longer shown.
    let removed = 0;
    for (const path of Object.keys(before?.files ?? {}))
      if (!(path in stamps) && existsSync(join(o.out, path))) {
        rmSync(join(o.out, path));
        removed++;
      }
    // Last: a build stopped half-way leaves the earlier stamps, which no new file matches.
    write(STAMPS, JSON.stringify({ code, files: stamps } satisfies Stamps));
    // GitHub Pages would otherwise run the site through Jekyll.
    writeFileSync(join(o.out, '.nojekyll'), '');
    return { files, bytes, kept, removed };
  } finally {
    db.close();
  }
}
