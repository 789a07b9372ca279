/**
 * One record per oracle (src/oracles/registry.ts): every record's template file exists and defines that oracle,
 * every template file has a record, and its sources exist (target determination maps them to the oracle).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { ORACLES } from '../../op_db/index.ts';
import { affectedBy, expandMatrix } from '../../src/ci/index.ts';
import { ORACLE_TABLE, oracleRecords } from '../../src/oracles/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');

test('every oracle has a record named after it, and the matrix expands every one', () => {
  expect(Object.keys(ORACLE_TABLE).sort()).toEqual([...ORACLES].sort());
  for (const [key, r] of Object.entries(ORACLE_TABLE)) expect(r.name).toBe(key);
  expect(new Set(expandMatrix('pull').map((i) => i.oracle))).toEqual(new Set(ORACLES));
});

test("every record's template exists and defines that oracle; every template has a record", () => {
  for (const r of oracleRecords()) {
    const path = join(ROOT, r.template);
    expect(existsSync(path), r.template).toBe(true);
    expect(readFileSync(path, 'utf8')).toContain(`defineMatrixTests('${r.name}'`);
  }
  const templates = readdirSync(join(ROOT, 'tests/templates'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `tests/templates/${f}`);
  expect(templates.sort()).toEqual(
    oracleRecords()
      .map((r) => r.template)
      .sort(),
  );
});

test("every record's sources exist, and a change to one re-runs (at least) that oracle", () => {
  for (const r of oracleRecords()) {
    for (const f of [...r.sources, r.template]) {
      expect(existsSync(join(ROOT, f)), f).toBe(true);
      const a = affectedBy([f], ROOT);
      expect(a.all, f).toBe(false);
      expect(a.oracles.has(r.name), f).toBe(true);
    }
  }
});
