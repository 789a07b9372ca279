/**
 * The template slice (src/ci/run/slice.ts): what the matrix templates run under plain vitest (`npm test`). The
 * stratified slice keeps every (op, oracle, device) of the pull tier, every dtype and layout of each (oracle,
 * device) and every mode, is the same on every call and in every template file, and prefers instances that run;
 * OPGATE_TEMPLATE_SLICE=full and `opgate run` still run the whole selection; and a template file, as vitest
 * collects it, defines exactly those tests.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ORACLES } from '../../op_db/index.ts';
import {
  expandMatrix,
  type MatrixInstance,
  planRun,
  sliceOf,
  stratifiedSlice,
  templateSlice,
} from '../../src/ci/index.ts';
import { oraclePlan, toRunPlan } from '../../src/ci/run/plan.ts';

const ROOT = join(import.meta.dirname, '../..');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const pull = expandMatrix('pull');
const slice = stratifiedSlice(pull);
const set = (xs: Iterable<string>) => new Set(xs);
const keys = (insts: readonly MatrixInstance[], key: (i: MatrixInstance) => string) => set(insts.map(key));

describe('the stratified slice of the pull tier', () => {
  test('has every (op, oracle, device), every dtype and layout of each (oracle, device), and every mode', () => {
    const axes: ((i: MatrixInstance) => string)[] = [
      (i) => `${i.op} ${i.oracle} ${i.device}`,
      (i) => `${i.oracle} ${i.device} ${i.dtype}`,
      (i) => `${i.oracle} ${i.device} ${i.layout}`,
      (i) => i.mode,
      (i) => i.oracle,
    ];
    for (const key of axes) expect(keys(slice, key)).toEqual(keys(pull, key));
    // Smaller than the tier, and only the tier's own instances (same ids, seeds and rules).
    expect(slice.length).toBeLessThan(pull.length / 4);
    const byId = new Map(pull.map((i) => [i.id, i]));
    for (const i of slice) expect(byId.get(i.id)).toBe(i);
    expect(set(slice.map((i) => i.id)).size).toBe(slice.length);
  });

  test('is deterministic: the same instances on every call, in expansion order, and per oracle as a whole', () => {
    expect(stratifiedSlice(expandMatrix('pull')).map((i) => i.id)).toEqual(slice.map((i) => i.id));
    const order = new Map(pull.map((i, k) => [i.id, k]));
    const positions = slice.map((i) => order.get(i.id) ?? -1);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // Each template file slices its own oracle's instances: together they are the slice of the whole tier.
    for (const oracle of ORACLES)
      expect(oraclePlan('pull', oracle, 'stratified')).toEqual(
        toRunPlan(
          slice.filter((i) => i.oracle === oracle),
          [],
          0,
        ),
      );
  });

  test('an (op, oracle, device) with an instance that runs is never represented by a skip', () => {
    const runs = keys(
      pull.filter((i) => i.rule?.kind !== 'skip'),
      (i) => `${i.op} ${i.oracle} ${i.device}`,
    );
    const covered = keys(
      slice.filter((i) => i.rule?.kind !== 'skip'),
      (i) => `${i.op} ${i.oracle} ${i.device}`,
    );
    expect(covered).toEqual(runs);
  });
});

describe('the whole tier is unaffected', () => {
  test('OPGATE_TEMPLATE_SLICE: unset or stratified slices, full is the whole tier, anything else is an error', () => {
    expect(templateSlice({})).toBe('stratified');
    expect(templateSlice({ OPGATE_TEMPLATE_SLICE: 'stratified' })).toBe('stratified');
    expect(templateSlice({ OPGATE_TEMPLATE_SLICE: 'full' })).toBe('full');
    expect(() => templateSlice({ OPGATE_TEMPLATE_SLICE: 'all' })).toThrow(
      /OPGATE_TEMPLATE_SLICE: got 'all', expected one of stratified, full \[E_INVALID_ARGUMENT\]/,
    );
    expect(sliceOf(pull, 'full')).toEqual(pull);
    expect(oraclePlan('pull', 'metadata', 'full')).toEqual(
      toRunPlan(expandMatrix('pull', { oracle: ['metadata'] }), [], 0),
    );
  });

  test('opgate run plans its whole selection, whatever OPGATE_TEMPLATE_SLICE says', () => {
    const before = process.env.OPGATE_TEMPLATE_SLICE;
    process.env.OPGATE_TEMPLATE_SLICE = 'stratified';
    try {
      const planned = planRun({ tier: 'pull', filters: { op: ['add'] }, disabled: [] });
      const all = expandMatrix('pull', { op: ['add'] });
      expect(planned.instances.map((i) => i.id)).toEqual(all.map((i) => i.id));
      expect(stratifiedSlice(all).length).toBeLessThan(all.length);
    } finally {
      if (before === undefined) delete process.env.OPGATE_TEMPLATE_SLICE;
      else process.env.OPGATE_TEMPLATE_SLICE = before;
    }
  });
});

/** `vitest list <template> --json` as `npm test` would collect it: the test names (instance ids) it defines. */
function listed(template: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [VITEST, 'list', template, '--json'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    p.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    p.on('error', fail);
    p.on('close', (code) =>
      code === 0
        ? done((JSON.parse(out) as { name: string }[]).map((t) => t.name))
        : fail(new Error(`vitest list exited ${code}: ${err}`)),
    );
  });
}

test('a template under plain vitest defines the slice; OPGATE_TEMPLATE_SLICE=full the whole pull tier', async () => {
  const [sliced, full] = await Promise.all([
    listed('tests/templates/property.test.ts', { OPGATE_TEMPLATE_SLICE: '' }),
    listed('tests/templates/property.test.ts', { OPGATE_TEMPLATE_SLICE: 'full' }),
  ]);
  const ids = (insts: readonly MatrixInstance[]) =>
    insts.filter((i) => i.oracle === 'property').map((i) => i.id);
  expect(sliced).toEqual(ids(slice));
  expect(full).toEqual(ids(pull));
  expect(sliced.length).toBeLessThan(full.length);
}, 120_000);
