/**
 * The reach map against real coverage: the cpu iterator's tiled walk runs only for the 128 x 128 transposed
 * add, so the map must name exactly those instances for its line, put them first in the selection (TD maps the
 * iterator to the whole matrix, where a capped random sample almost never holds them), and call a line no
 * instance runs unreached.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildReachMap, generateMutants, ReachMap, treeHash } from '../../src/ci/mutate/index.ts';
import { Selector } from '../../src/ci/mutate/select.ts';
import { PACKAGE_ROOT as ROOT } from '../../src/ci/run/root.ts';
import { opgate } from './run_helpers.ts';

const ITERATOR = 'src/runtime/backends/cpu/iterator.ts';

describe('reach map', () => {
  test('the tiled walk is reached by the tiled add only, and those instances run first', async () => {
    const mutants = generateMutants(ROOT, ['src/runtime/backends/cpu']).filter((m) => m.file === ITERATOR);
    const data = await buildReachMap(mutants, {
      root: ROOT,
      tier: 'pull',
      jobs: 1,
      instanceTimeoutMs: 60_000,
      // add's cpu float32 instances: the tiled sample is float32 only.
      only: (i) => i.info.name === 'add' && i.device === 'cpu' && i.dtype === 'float32',
    });
    const map = new ReachMap(data, ROOT);
    const tiled = mutants.find(
      (m) => m.operator === 'drop-stride-term' && m.original.includes('i0 * strides'),
    );
    expect(tiled).toBeDefined();
    const r = map.reached(tiled!);
    expect(r.kind).toBe('instances');
    const ids = r.kind === 'instances' ? [...r.ids] : [];
    expect(ids.length).toBeGreaterThan(0);
    // Only float32 (the one dtype of the tiled sample), never a reduction or another op.
    for (const id of ids) expect(id).toMatch(/^test_\w+_add_\w+_float32_/);
    // Only some of the instances the pass ran take it; other lines of the iterator are reached by more.
    expect(data.ids.length).toBeGreaterThan(ids.length);
    expect(Math.max(...Object.values(data.hits).map((h) => h.length))).toBeGreaterThan(ids.length);

    const sel = new Selector(ROOT, 'pull', 50, map).select(tiled!);
    expect(sel.reached).toBe(Math.min(ids.length, 50));
    expect(new Set(sel.ids.slice(0, sel.reached))).toEqual(new Set(ids.slice(0, 50)));
    // Without the map the same cap over the whole matrix holds few or none of them.
    const blind = new Selector(ROOT, 'pull', 50).select(tiled!);
    expect(blind.ids.filter((id) => ids.includes(id)).length).toBeLessThan(sel.reached);
  });

  test('a line the map watched but no instance ran is unreached on the same tree, a hint on another', () => {
    const m = generateMutants(ROOT, ['src/runtime/backends/cpu']).filter((m) => m.file === ITERATOR)[0];
    const data = {
      version: 1 as const,
      tier: 'pull' as const,
      tree: 'other',
      texts: { [m.file]: { [m.line]: m.original.trim() } },
      loadTime: [],
      unmapped: [],
      ids: [],
      hits: {},
      seconds: 0,
    };
    const stale = new ReachMap(data, ROOT);
    expect(stale.fresh).toBe(false);
    expect(new Selector(ROOT, 'pull', 10, stale).select(m).unreached).toBe(false);
    const fresh = new ReachMap({ ...data, tree: treeHash(ROOT) }, ROOT);
    const sel = new Selector(ROOT, 'pull', 10, fresh).select(m);
    expect(sel.unreached).toBe(true);
    expect(sel.ids).toEqual([]);
    // A line coverage cannot see (inside a kernel's source template) is unknown, never unreached.
    const unseen = new ReachMap({ ...data, tree: treeHash(ROOT), unmapped: [`${m.file}:${m.line}`] }, ROOT);
    expect(unseen.reached(m).kind).toBe('unknown');
    expect(new Selector(ROOT, 'pull', 10, unseen).select(m).unreached).toBe(false);
    // Moved lines are found by their text.
    const moved = fresh.reached({ ...m, line: m.line + 3 });
    expect(moved.kind).toBe('instances');
    expect(moved.kind === 'instances' && moved.exact).toBe(false);
  });

  test('opgate mutate --build-reach writes the map --reach reads: the tiled add runs first and kills the mutant', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-reach-cli-'));
    const map = join(dir, 'reach.json');
    const tiled = generateMutants(ROOT, ['src/runtime/backends/cpu']).find(
      (m) => m.file === ITERATOR && m.operator === 'drop-stride-term' && m.original.includes('i0 * strides'),
    )!;
    const args = ['mutate', '--only', tiled.id, '--reach', map, '--json', '--jobs', '1', '--no-unit'];
    const r = await opgate([...args, '--build-reach', '--db', join(dir, 'm.db'), '--max-instances', '5'], {
      env: { OPGATE_REACH_OPS: 'add' },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!);
    // Five instances out of the whole matrix: only the reached ones, run first, can kill it.
    expect(summary).toMatchObject({ mutants: 1, killed: 1 });
    const data = JSON.parse(readFileSync(map, 'utf8'));
    // Built over add only: a partial map orders, it never rules a line unreached.
    expect(data.partial).toBe(true);
    expect(new ReachMap(data, ROOT).fresh).toBe(false);
  });
}, 300_000);
