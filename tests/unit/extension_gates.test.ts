/**
 * An extension's own gates, through the CLI as its CI calls them: a BC snapshot of its namespace (`opgate bc
 * update|check --config --namespace`), which catches a changed default, and perf scenarios of its own (`opgate
 * perf --scenarios`). The count itself under valgrind (30 s) runs in CI's worked example (.ci/example-myops), not
 * here.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bundleRegion, listScenarios } from '../../src/ci/perf/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/opgate.mjs');
const CONFIG = 'tests/fixtures/myops/opgate.config.ts';
const SCENARIOS = 'tests/fixtures/myops/scenarios.ts';
const opgate = (args: string[], env: Record<string, string> = {}) =>
  spawnSync('node', [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });

describe('bc --namespace: the schema snapshot of an extension', () => {
  const dir = mkdtempSync(join(tmpdir(), 'opgate-bc-ns-'));
  const snapshot = join(dir, 'myops.snapshot.json');

  test("update writes only the namespace's overloads, keyed with their namespace", () => {
    const r = opgate(['bc', 'update', '--config', CONFIG, '--namespace', 'myops', '--snapshot', snapshot]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(snapshot, 'utf8')).schemas).toEqual({
      'myops::scale_shift': 'myops::scale_shift(Tensor x, float scale=2.0, float shift=1.0) -> Tensor',
    });
  });

  test('check passes on the same schema and fails on a changed default, naming the op', () => {
    expect(
      opgate(['bc', 'check', '--config', CONFIG, '--namespace', 'myops', '--snapshot', snapshot]).status,
    ).toBe(0);
    const changed = snapshot.replace('.json', '.old.json');
    const text = readFileSync(snapshot, 'utf8').replace('float shift=1.0', 'float shift=0.0');
    writeFileSync(changed, text);
    const r = opgate(['bc', 'check', '--config', CONFIG, '--namespace', 'myops', '--snapshot', changed]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /BC myops::scale_shift \[default_changed\]: argument 'shift': default changed from 0\.0 to 1\.0/,
    );
  });

  test('a namespace with no op (its config not loaded) is refused, not an empty pass', () => {
    const r = opgate(['bc', 'check', '--namespace', 'myops', '--snapshot', snapshot]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no op in namespace 'myops' \(is its --config loaded\?\)/);
  });
});

describe('perf --scenarios: the perf scenarios of an extension', () => {
  test("the bundled program lists the project's scenarios, not opgate's", () => {
    const names = listScenarios(bundleRegion(ROOT, join(ROOT, SCENARIOS))).map((s) => s.name);
    expect(names).toEqual(['scale_shift_1elem']);
  });

  test('a scenarios file that does not exist is a coded error', () => {
    const r = opgate(['perf', 'record', '--scenarios', 'tests/fixtures/myops/nope.ts']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^opgate: --scenarios: no such file: tests\/fixtures\/myops\/nope\.ts/);
  });
});
