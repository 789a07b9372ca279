/**
 * `opgate dashboard build --out dir`: the static site (GitHub Pages, a CI artifact): the HTML shell, the client
 * bundle and every data document as JSON. The same client runs on it; it only fetches relative paths.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { allDataFiles, openReadOnly } from './data/index.ts';
import { clientBundle, INDEX_HTML } from './site.ts';

export interface BuildOptions {
  readonly db: string;
  readonly out: string;
  readonly repo: string | null;
}

export interface BuildReport {
  readonly files: number;
  readonly bytes: number;
}

export async function buildDashboard(o: BuildOptions): Promise<BuildReport> {
  const db = openReadOnly(o.db);
  try {
    const files = new Map<string, string>([['index.html', INDEX_HTML]]);
    const bundle = await clientBundle();
    files.set('app.js', bundle.js);
    files.set('app.css', bundle.css);
    const meta = { repo: o.repo, generatedAt: new Date().toISOString(), mode: 'static' as const };
    for (const [path, doc] of allDataFiles(db, meta)) files.set(path, JSON.stringify(doc));
    let bytes = 0;
    for (const [path, text] of files) {
      const to = join(o.out, path);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, text);
      bytes += Buffer.byteLength(text);
    }
    // GitHub Pages would otherwise run the site through Jekyll.
    writeFileSync(join(o.out, '.nojekyll'), '');
    return { files: files.size, bytes };
  } finally {
    db.close();
  }
}
