/**
 * `opgate dashboard`: node:http on 127.0.0.1. The database is opened read-only and every document is computed
 * per request, so the page shows what a running `opgate run` has written so far.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commitShas, dbError, shardsOfCommit } from '../src/ci/index.ts';
import {
  cellData,
  DEVICES,
  DOCUMENTS,
  isDocument,
  isPerCommit,
  mutationRunDoc,
  openReadOnly,
  PER_COMMIT,
  type ReadDb,
  type SiteMeta,
  type TestsData,
  testsData,
} from './data/index.ts';
import { DashboardError } from './errors.ts';
import { jobKey, slug } from './shared.ts';
import { CSP, clientBundle, INDEX_HTML } from './site.ts';

export interface ServeOptions {
  readonly db: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly repo: string | null;
}

export interface RunningDashboard {
  readonly url: string;
  readonly db: string;
  readonly server: Server;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'content-type': `${type}; charset=utf-8`,
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(body);
}

export async function serveDashboard(o: ServeOptions): Promise<RunningDashboard> {
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535)
    throw new DashboardError('E_BAD_PARAM', `--port: got ${o.port}, expected an integer in 0..65535`);
  const db = openReadOnly(o.db);
  const bundle = await clientBundle();
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'read-only');
    // The raw path, not `new URL(...)`: a request for `//` must be a 404, not an exception.
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (path === '/' || path === '/index.html') return send(res, 200, 'text/html', INDEX_HTML);
      if (path === '/app.js') return send(res, 200, 'text/javascript', bundle.js);
      if (path === '/app.css') return send(res, 200, 'text/css', bundle.css);
      if (path === '/data/meta.json') {
        const meta: SiteMeta = {
          repo: o.repo,
          generatedAt: new Date().toISOString(),
          mode: 'live',
          perCommit: null,
        };
        return send(res, 200, 'application/json', JSON.stringify(meta));
      }
      if (path === '/data/tests.json') {
        const q = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('q') ?? '';
        if (q.length > 500)
          return send(
            res,
            400,
            'application/json',
            JSON.stringify({ code: 'E_BAD_PARAM', message: 'q: over 500 characters' }),
          );
        let answer: TestsData;
        try {
          answer = testsData(db, { q });
        } catch (e) {
          // An invalid /regex/: the client checks it first, with the same matcher.
          if (!(e instanceof SyntaxError)) throw e;
          return send(
            res,
            400,
            'application/json',
            JSON.stringify({ code: 'E_BAD_PARAM', message: `q: ${e.message}` }),
          );
        }
        return send(res, 200, 'application/json', JSON.stringify(answer));
      }
      const doc = /^\/data\/(\w+)\.json$/.exec(path);
      if (doc && isDocument(doc[1]))
        return send(res, 200, 'application/json', JSON.stringify(DOCUMENTS[doc[1]](db)));
      const perCommit = /^\/data\/(\w+)\/(\w+)\.json$/.exec(path);
      if (perCommit && isPerCommit(perCommit[1])) {
        const sha = commitOfSlug(db, perCommit[2]);
        if (sha) return send(res, 200, 'application/json', JSON.stringify(PER_COMMIT[perCommit[1]](db, sha)));
      }
      const run = /^\/data\/mutation\/(\d{1,15})\.json$/.exec(path);
      if (run) {
        const found = mutationRunDoc(db, Number(run[1]));
        if (found) return send(res, 200, 'application/json', JSON.stringify(found));
      }
      const cell = /^\/data\/cell\/(\w+)\/(\w+)\.json$/.exec(path);
      if (cell) {
        const found = findCell(db, cell[1], cell[2]);
        if (found)
          return send(res, 200, 'application/json', JSON.stringify(cellData(db, found.sha, found.job)));
      }
      send(res, 404, 'application/json', JSON.stringify({ code: 'E_NOT_FOUND', path }));
    } catch (thrown) {
      // A damaged or unreadable file while serving: its code (E_DB_CORRUPT, E_DB_IO), not a bare SQLite message.
      const e = dbError(thrown, o.db, 'reading');
      const code = (e as { code?: unknown }).code;
      send(
        res,
        500,
        'application/json',
        JSON.stringify({
          code: typeof code === 'string' && code.startsWith('E_') ? code : 'E_INTERNAL',
          message: String(e.message ?? e),
        }),
      );
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    db: o.db,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          db.close();
          resolve();
        });
      }),
  };
}

/** URLs hold slugs (safe in paths); map one back to the commit it came from. */
function commitOfSlug(db: ReadDb, shaSlug: string): string | null {
  const shas = commitShas(db);
  return shas.find((s) => slug(s) === shaSlug) ?? null;
}

/** ... and a cell's job slug back to its shard and device. */
function findCell(db: ReadDb, shaSlug: string, jobSlug: string): { sha: string; job: string } | null {
  const sha = commitOfSlug(db, shaSlug);
  if (!sha) return null;
  const shards = shardsOfCommit(db, sha);
  for (const shard of shards)
    for (const device of DEVICES) {
      const job = jobKey(shard, device);
      if (slug(job) === jobSlug) return { sha, job };
    }
  return null;
}
