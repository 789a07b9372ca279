/**
 * opgate as a package: `npm run build` compiles what `npm pack` ships (dist/), and every `exports` entry of
 * package.json resolves to a file of it with its type declarations. The compiled faces work as one program: a
 * custom op defined through the main face (`opgate`) is found by opcheck from the testing face (`opgate/testing`),
 * so a project's ops and opgate's checks share one operator table. (CI installs the packed tarball into a fresh
 * project and runs examples/myops there: .ci/example-myops.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
  files: string[];
  bin: Record<string, string>;
};
const out = join(mkdtempSync(join(tmpdir(), 'opgate-build-')), 'dist');
/** A package path as it will be in the tarball: dist/ is the build's, the rest the repository's. */
const packaged = (p: string) =>
  p.startsWith('./dist/') ? join(out, p.slice('./dist/'.length)) : join(ROOT, p);

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'tools/package/build.mjs'), out], { stdio: 'pipe' });
}, 120_000);

describe('the package', () => {
  test('every exports entry and the bin resolve to shipped files, each with its type declarations', () => {
    const targets = Object.entries(PKG.exports).filter(([k]) => k !== './package.json');
    expect(targets.map(([k]) => k)).toEqual(['.', './testing', './cli']);
    for (const [, t] of targets) {
      if (typeof t === 'string') throw new Error(`exports entry ${t} has no types`);
      expect(existsSync(packaged(t.default)), t.default).toBe(true);
      expect(existsSync(packaged(t.types)), t.types).toBe(true);
      expect(PKG.files.some((f) => t.default.startsWith(`./${f}/`))).toBe(true);
    }
    expect(existsSync(join(ROOT, PKG.bin.opgate))).toBe(true);
  });

  test('the compiled tree holds the templates and the data read at run time', () => {
    expect(readdirSync(join(out, 'tests/templates')).filter((f) => f.endsWith('.test.js'))).toHaveLength(11);
    expect(readdirSync(join(out, 'op_db/goldens')).length).toBeGreaterThan(200);
    for (const f of [
      'op_db/schemas.snapshot.json',
      'op_db/refs/torch_tolerances.json',
      'dashboards/client/main.ts',
    ])
      expect(existsSync(join(out, f)), f).toBe(true);
    // Relative imports were rewritten to the .js files that exist.
    expect(readFileSync(join(out, 'src/ci/testing.js'), 'utf8')).toMatch(
      /from '\.\.\/\.\.\/op_db\/index\.js'/,
    );
  });

  test("a custom op defined through the main face is opcheck'd through the testing face: one runtime", async () => {
    const entry = (k: string) => (PKG.exports[k] as { default: string }).default;
    const rt = await import(pathToFileURL(packaged(entry('.'))).href);
    const testing = await import(
      pathToFileURL(packaged((PKG.exports['./testing'] as { default: string }).default)).href
    );
    rt.library.define('pkgtest::twice(Tensor x) -> Tensor');
    rt.library.impl('pkgtest::twice', 'composite', (x: unknown) => rt.callOp('mul', [x, 2]));
    const x = rt.tensor([1, 2.5], { dtype: 'float64' });
    expect(await rt.callOp('pkgtest::twice', [x]).toArray()).toEqual([2, 5]);
    const report = await testing.opcheck('pkgtest::twice', [{ args: [x] }]);
    expect(report.map((r: { failure: unknown }) => r.failure)).toEqual([null, null, null, null]);
    expect(typeof testing.unaryOpInfo).toBe('function');
    expect(typeof testing.defineConfig).toBe('function');
  });
});
