/**
 * `npm run bench:torch`'s pure parts (no timing is asserted): min of round medians, the ratio / target / table,
 * the JSON-lines protocol with bench/torch_cases.py (and the driver against a stand-in child), and recording
 * into a real SQLite file through the store, where the dashboards' perf data shows the ratio as a series.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startTorch } from '../../bench/torch_child.ts';
import {
  CASES,
  encodeRequest,
  formatTime,
  median,
  methodology,
  minOfMedians,
  parseReply,
  perfSamplesOf,
  recordFigures,
  renderTable,
  toRow,
} from '../../bench/torch_side.ts';
import { openReadOnly } from '../../dashboards/data/db.ts';
import { perfData } from '../../dashboards/data/perf.ts';
import { perfHistory } from '../../src/ci/perf/index.ts';
import { perfSamples } from '../../src/ci/store/perf.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'opgate-torch-bench-'));
const settings = { rounds: 2, samples: 3, minSampleMs: 5 };
const meta = (commitSha: string) => ({
  commitSha,
  platform: 'linux-x64 node20',
  nodeVersion: '20.0.0',
  settings,
});

describe('statistics', () => {
  test('median of odd and even counts; the figure is the smallest round median', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
    // A disturbed round (one slow median) does not move the figure; one fast outlier sample does not either.
    expect(
      minOfMedians([
        [10, 11, 12],
        [30, 31, 29],
        [1, 13, 12],
      ]),
    ).toBe(11);
    expect(() => minOfMedians([])).toThrow();
  });
});

describe('rows and table', () => {
  test('ratio is opgate / torch, targets are 1.5x for the bandwidth cases and the eager add, 2x else', () => {
    expect(Object.fromEntries(CASES.map((c) => [c.id, c.target]))).toEqual({
      add_1elem: 1.5,
      add_1m: 1.5,
      add_t_1024: 1.5,
      sum_1024: 1.5,
      softmax_1024: 2,
      matmul_256: 2,
      autograd_1elem: 2,
      sum_dim0_1024: 2,
      amax_dim0_1024: 2,
      argmax_1024: 2,
      argmax_dim1_1024: 2,
    });
    const batch = { opgate: 8, torch: 16 };
    const r = toRow({
      id: 'add_1m',
      opgate: [
        [300, 310, 320],
        [200, 210, 220],
      ],
      torch: [[140], [150]],
      batch,
    });
    expect([r.opgateUs, r.torchUs, r.ratio, r.within]).toEqual([210, 140, 1.5, true]);
    expect(r.opgateMedians).toEqual([310, 210]);
    const over = toRow({ id: 'add_1m', opgate: [[211]], torch: [[140]], batch });
    expect(over.within).toBe(false);
    const alone = toRow({ id: 'add_1elem', opgate: [[3]], torch: null, batch: { opgate: 8, torch: null } });
    expect([alone.torchUs, alone.ratio, alone.within]).toEqual([null, null, null]);
    expect(() => toRow({ id: 'nope', opgate: [[1]], torch: null, batch })).toThrow(/unknown case 'nope'/);
  });

  test('the markdown table', () => {
    const rows = [
      toRow({ id: 'add_1elem', opgate: [[3.04]], torch: [[1.52]], batch: { opgate: 1, torch: 1 } }),
      toRow({ id: 'sum_1024', opgate: [[1234.6]], torch: null, batch: { opgate: 1, torch: null } }),
    ];
    expect(renderTable(rows, '1.13.0a0').split('\n')).toEqual([
      '| case | PyTorch 1.13 | opgate | ratio (opgate/torch) | target | within? |',
      '| --- | --- | --- | --- | --- | --- |',
      '| add, 1 element (eager overhead) | 1.52 µs | 3.04 µs | 2.00x | 1.5x | no |',
      '| sum 1024² | — | 1.235 ms | — | 1.5x | — |',
    ]);
    expect(formatTime(152.4, 'us')).toBe('152 µs');
    expect(methodology(settings)).toMatch(
      /minimum over R=2 interleaved rounds.*median of 3 samples.*>= 5 ms/,
    );
    expect(methodology(settings, false)).not.toMatch(/torch/);
  });
});

describe('line protocol', () => {
  test('requests are one JSON line; replies parse or throw', () => {
    const req = encodeRequest({ op: 'run', case: 'add_1m', round: 1, samples: 15, minSampleMs: 5 });
    expect(req.endsWith('\n') && !req.slice(0, -1).includes('\n')).toBe(true);
    expect(JSON.parse(req)).toEqual({ op: 'run', case: 'add_1m', round: 1, samples: 15, minSampleMs: 5 });
    expect(parseReply('{"hello": "torch", "version": "1.13.0a0", "threads": 1}')).toEqual({
      kind: 'hello',
      version: '1.13.0a0',
      threads: 1,
    });
    expect(parseReply('{"case": "add_1m", "round": 1, "batch": 32, "samples": [1.5, 2]}')).toEqual({
      kind: 'samples',
      case: 'add_1m',
      round: 1,
      batch: 32,
      samples: [1.5, 2],
    });
    expect(parseReply('{"error": "KeyError: x"}')).toEqual({ kind: 'error', message: 'KeyError: x' });
    for (const bad of ['not json', '[]', '{"case": "a", "round": 0, "batch": 1, "samples": []}'])
      expect(() => parseReply(bad), bad).toThrow(/torch child/);
    expect(() => parseReply('{"case": "a", "round": 0, "batch": 1, "samples": [NaN]}')).toThrow();
  });

  test('the Python side defines exactly the cases the driver knows', () => {
    const py = readFileSync(resolve(import.meta.dirname, '../../bench/torch_cases.py'), 'utf8');
    const ids = [...py.matchAll(/^ {8}"(\w+)": /gm)].map((m) => m[1]);
    expect(ids).toEqual(CASES.map((c) => c.id));
  });

  test('the driver against a stand-in child; a missing interpreter or torch is "not found"', async () => {
    const dir = tmp();
    const fake = join(dir, 'fake-python');
    // Ignores the script argument and answers like torch_cases.py, with fixed samples.
    writeFileSync(
      fake,
      `#!${process.execPath}
const rl = require('node:readline').createInterface({ input: process.stdin });
console.log(JSON.stringify({ hello: 'torch', version: '9.9.0', threads: 1 }));
rl.on('line', (l) => {
  const q = JSON.parse(l);
  if (q.op === 'quit') process.exit(0);
  if (q.case === 'bad') console.log(JSON.stringify({ error: 'KeyError: bad' }));
  else console.log(JSON.stringify({ case: q.case, round: q.round, batch: 4, samples: Array(q.samples).fill(2) }));
});
`,
    );
    chmodSync(fake, 0o755);
    const s = await startTorch(fake);
    if (!s.ok) throw new Error(s.reason);
    expect([s.child.version, s.child.threads]).toEqual(['9.9.0', 1]);
    expect(await s.child.run('add_1m', 0, settings)).toEqual({ batch: 4, samples: [2, 2, 2] });
    await expect(s.child.run('bad', 1, settings)).rejects.toThrow(/KeyError: bad/);
    await s.child.close();

    const missing = await startTorch(join(dir, 'no-such-python'));
    expect(missing.ok).toBe(false);
    const noTorch = join(dir, 'no-torch');
    writeFileSync(noTorch, `#!/bin/sh\necho '{"error": "torch not importable"}'\nexit 3\n`);
    chmodSync(noTorch, 0o755);
    expect(await startTorch(noTorch)).toEqual({ ok: false, reason: 'torch not importable' });
  });
});

describe('recording', () => {
  const rowsAt = (k: number) => [
    toRow({ id: 'add_1m', opgate: [[300 + k]], torch: [[150]], batch: { opgate: 8, torch: 16 } }),
    toRow({ id: 'add_1elem', opgate: [[3]], torch: null, batch: { opgate: 1024, torch: null } }),
  ];

  test('per case wall_us, and with torch torch_wall_us and ratio, under torch_side/<case>', () => {
    const samples = perfSamplesOf(rowsAt(0), meta('c0'));
    expect(samples.map((s) => [s.scenario, s.metric, s.value])).toEqual([
      ['torch_side/add_1m', 'wall_us', 300],
      ['torch_side/add_1m', 'torch_wall_us', 150],
      ['torch_side/add_1m', 'ratio', 2],
      ['torch_side/add_1elem', 'wall_us', 3],
    ]);
    expect(samples[2].detail).toEqual({ target: 1.5 });
  });

  test('writes a real SQLite file through the store; the dashboards chart the ratio over commits', () => {
    const db = join(tmp(), 'perf.db');
    for (let c = 0; c < 3; c++) expect(recordFigures(db, rowsAt(30 * c), meta(`sha${c}`))).toBe(4);
    const reader = openReadOnly(db);
    try {
      expect(perfSamples(reader)).toHaveLength(12);
      expect(perfHistory(reader, 'torch_side/add_1m', 'ratio')).toEqual([
        { commit: 'sha0', value: 2 },
        { commit: 'sha1', value: 2.2 },
        { commit: 'sha2', value: 2.4 },
      ]);
      const series = perfData(reader).series.filter((s) => s.scenario.startsWith('torch_side/'));
      expect(series.map((s) => `${s.scenario} ${s.metric} ${s.points.length}`).sort()).toEqual([
        'torch_side/add_1elem wall_us 3',
        'torch_side/add_1m ratio 3',
        'torch_side/add_1m torch_wall_us 3',
        'torch_side/add_1m wall_us 3',
      ]);
    } finally {
      reader.close();
    }
  });
});
