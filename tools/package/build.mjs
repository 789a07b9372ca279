// `npm run build` (and `npm pack`'s prepack): compiles opgate into dist/, the package another project installs.
// tsc emits JavaScript with its relative imports rewritten to .js, and type declarations, for src/, op_db/, the
// test templates and the dashboards' server; the files read at run time (PyTorch's goldens and tables, the
// schema snapshot, the dashboards' browser client, which esbuild bundles from its sources) are copied beside them.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// `node tools/package/build.mjs [outDir]`: dist/ by default (tests/unit/package.test.ts builds elsewhere).
const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = `${resolve(process.argv[2] ?? `${root}dist`)}/`;
rmSync(dist, { recursive: true, force: true });
const tsc = `${root}node_modules/typescript/bin/tsc`;
execFileSync(process.execPath, [tsc, '-p', `${root}tools/package/tsconfig.json`, '--outDir', dist], {
  stdio: 'inherit',
});
const ASSETS = [
  'op_db/goldens',
  'op_db/bc_allowlist.json',
  'op_db/schemas.snapshot.json',
  'op_db/torch_aten_schemas.txt',
  'op_db/torch_python_signatures.txt',
  'dashboards/client',
  'dashboards/shared.ts',
];
for (const a of ASSETS) {
  if (!existsSync(`${root}${a}`)) throw new Error(`build: ${a} is missing`);
  cpSync(`${root}${a}`, `${dist}${a}`, { recursive: true });
}
process.stdout.write(`built ${dist}\n`);
