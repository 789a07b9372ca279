/**
 * Third-party devices (PyTorch's PrivateUse1 path, issue 48 item 4): registerDevice's coded errors, a registered
 * device's tensors (to / from cpu, readback, factories, views), its kernels against cpu through the cross-backend
 * oracle, an op without a kernel reported unsupported (never failed), a wrong kernel failing, `opgate run --device
 * jsdev` printing conformance per op family, and the dashboards' coverage view showing it (in Chromium).
 * tests/fixtures/jsdev/device.ts is the device: plain JS arrays and six kernels.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../dashboards/e2e/browser.ts';
import { serveDashboard } from '../../dashboards/index.ts';
import { opDb } from '../../op_db/index.ts';
import { deviceConformance, formatConformance } from '../../src/ci/conformance.ts';
import { matrixInstance } from '../../src/ci/matrix.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { runOracle } from '../../src/oracles/index.ts';
import { parseDevice } from '../../src/runtime/core/index.ts';
import {
  callOp,
  type DeviceSpec,
  DuplicateDeviceError,
  library,
  MissingKernelError,
  registerDevice,
  registeredDevice,
  type Tensor,
  tensor,
  torch,
} from '../../src/runtime/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/opgate.mjs');
const CONFIG = 'tests/fixtures/jsdev/opgate.config.ts';
const opgate = (args: string[], env: Record<string, string> = {}) =>
  spawnSync('node', [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, ...env },
  });

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'no error';
};
const memory: DeviceSpec = {
  allocate: (_d, n) => new Array(n).fill(0),
  toCpu: (h) => Float32Array.from(h as number[]),
  fromCpu: (d) => Array.from(d as ArrayLike<number>),
};

describe('registerDevice: before any device is registered', () => {
  test('a device string naming no registered device is the built-in coded error', () => {
    expect(codeOf(() => parseDevice('jsdev'))).toBe('E_INVALID_ARGUMENT');
    expect(() => tensor([1], { device: 'jsdev' })).toThrow(/Expected one of cpu, meta, webgpu device type/);
    expect(codeOf(() => library.impl('neg', 'jsdev', (x: Tensor) => x))).toBe('E_INVALID_ARGUMENT');
    expect(() => library.impl('neg', 'jsdev', (x: Tensor) => x)).toThrow(/no device 'jsdev' is registered/);
  });

  test('a built-in or PyTorch device name is E_RESERVED_DEVICE; a malformed name or spec E_INVALID_ARGUMENT', () => {
    for (const name of ['cpu', 'meta', 'webgpu', 'cuda', 'mps', 'privateuseone'])
      expect(
        codeOf(() => registerDevice(name, memory)),
        name,
      ).toBe('E_RESERVED_DEVICE');
    for (const name of ['', 'My_Dev', 'dev:0', 42 as unknown as string])
      expect(
        codeOf(() => registerDevice(name, memory)),
        String(name),
      ).toBe('E_INVALID_ARGUMENT');
    const bad = [
      null,
      { ...memory, allocate: 1 },
      { allocate: memory.allocate, fromCpu: memory.fromCpu },
      { ...memory, dtypes: ['float33'] },
      { ...memory, dtypes: [] },
      { ...memory, kernels: { neg: 'not a function' } },
    ];
    for (const spec of bad)
      expect(
        codeOf(() => registerDevice('okdev', spec as never)),
        JSON.stringify(spec),
      ).toBe('E_INVALID_ARGUMENT');
    expect(() => registerDevice('okdev', { ...memory, allocate: 1 } as never)).toThrow(
      /registerDevice\('okdev'\): the device spec is malformed; argument 'allocate'; got number; expected a function/,
    );
    // A kernel for an op that does not exist: E_UNKNOWN_OP, and nothing is registered.
    expect(codeOf(() => registerDevice('okdev', { ...memory, kernels: { 'nope.Tensor': () => null } }))).toBe(
      'E_UNKNOWN_OP',
    );
    expect(registeredDevice()).toBeNull();
  });
});

describe('jsdev: a registered device', () => {
  // Registered once the tests above have seen the runtime without it (one slot per process, as in PyTorch).
  beforeAll(async () => {
    await import('../fixtures/jsdev/device.ts');
  });

  test('a second device, or the same one again, is E_DUPLICATE_DEVICE', () => {
    expect(registeredDevice()).toBe('jsdev');
    expect(codeOf(() => registerDevice('otherdev', memory))).toBe('E_DUPLICATE_DEVICE');
    expect(() => registerDevice('jsdev', memory)).toThrow(DuplicateDeviceError);
    expect(() => registerDevice('jsdev', memory)).toThrow(/registered: 'jsdev'/);
  });

  test('tensors move to and from it, keep their layout and read back; factories and views work there', async () => {
    const x = tensor(
      [
        [1.5, -2, 3],
        [4, 5, -6],
      ],
      { device: 'jsdev' },
    );
    expect(x.device).toBe('jsdev');
    expect(parseDevice('jsdev:0')).toBe('jsdev');
    expect(x.tolist()).toEqual([
      [1.5, -2, 3],
      [4, 5, -6],
    ]);
    const t = x.transpose(0, 1);
    expect(t.device).toBe('jsdev');
    expect(await t.toArray()).toEqual([1.5, 4, -2, 5, 3, -6]);
    const back = t.to('cpu') as Tensor;
    expect([back.device, back.tolist()]).toEqual([
      'cpu',
      [
        [1.5, 4],
        [-2, 5],
        [3, -6],
      ],
    ]);
    const ones = torch.ones([2, 2], { device: 'jsdev', dtype: 'int64' }) as Tensor;
    expect([ones.device, ones.tolist()]).toEqual([
      'jsdev',
      [
        [1n, 1n],
        [1n, 1n],
      ],
    ]);
  });

  test("its kernels run (strided inputs, the result's dtype by promotion); an op without one is E_NOT_IMPLEMENTED", () => {
    const x = tensor(
      [
        [1, -2],
        [3, -4],
      ],
      { device: 'jsdev', dtype: 'int32' },
    );
    const y = callOp('add', [x.transpose(0, 1), 0.5], { alpha: 2 }) as Tensor;
    expect([y.device, y.dtype, y.tolist()]).toEqual([
      'jsdev',
      'float32',
      [
        [2, 4],
        [-1, -3],
      ],
    ]);
    expect((callOp('sum', [x, [1]]) as Tensor).tolist()).toEqual([-1n, -1n]);
    let err: unknown;
    try {
      callOp('exp', [x]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MissingKernelError);
    expect((err as MissingKernelError).code).toBe('E_NOT_IMPLEMENTED');
    expect((err as Error).message).toMatch(
      /exp: could not run 'exp' with arguments from the 'PrivateUse1' backend \(device 'jsdev'\)/,
    );
    expect((err as MissingKernelError).kernelOp).toBe('aten::exp');
  });

  test('library.impl on the device: a built-in overload by name; a bare name with overloads, a second kernel are coded', () => {
    expect(codeOf(() => library.impl('add', 'jsdev', () => null))).toBe('E_UNKNOWN_OP');
    expect(() => library.impl('add', 'jsdev', () => null)).toThrow(
      /one of its overloads: add\.Tensor, add\.out/,
    );
    expect(codeOf(() => library.impl('aten::add.Tensor', 'jsdev', () => null))).toBe('E_DUPLICATE_OP');
    library.impl('aten::exp', 'jsdev', (x: Tensor) => x);
    expect(codeOf(() => library.impl('exp', 'jsdev', (x: Tensor) => x))).toBe('E_DUPLICATE_OP');
    // A kernel returning a tensor on another device breaks its schema.
    library.impl('sin', 'jsdev', (x: Tensor) => x.to('cpu'));
    expect(codeOf(() => callOp('sin', [tensor([1], { device: 'jsdev' })]))).toBe('E_SCHEMA_MISMATCH');
  });

  test('cross-backend against cpu: its kernels pass, an op without a kernel is unsupported, not failed', async () => {
    const info = (name: string) => opDb.find((i) => i.name === name)!;
    for (const [op, dtype, layout] of [
      ['add', 'float32', 'transposed'],
      ['mul', 'int32', 'offset'],
      ['neg', 'float64', 'contiguous'],
      ['abs', 'int8', 'transposed'],
      ['nn.functional.relu', 'float32', 'offset'],
      ['sum', 'int64', 'transposed'],
      ['zeros', 'float32', 'contiguous'],
    ] as const) {
      const r = await runOracle(matrixInstance(info(op), 'crossbackend', 'jsdev' as never, dtype, layout));
      expect(r.unsupported, op).toBeUndefined();
      expect(r.checks, op).toBeGreaterThan(0);
    }
    const r = await runOracle(
      matrixInstance(info('tanh'), 'crossbackend', 'jsdev' as never, 'float32', 'contiguous'),
    );
    expect(r.unsupported).toBe('unsupported on jsdev: no kernel for aten::tanh');
    // A dtype the device does not compute: the instance is skipped as unsupported before it runs.
    expect(
      matrixInstance(info('add'), 'crossbackend', 'jsdev' as never, 'float16', 'contiguous').rule,
    ).toMatchObject({
      kind: 'skip',
      reason: 'unsupported on jsdev: the device does not compute float16',
    });
  });

  test('conformance per family: the ruler is what cpu claims; unsupported and failed count against the score', () => {
    const row = (op: string, dtype: string, status: string, message: string | null = null) => ({
      op,
      device: 'jsdev',
      dtype,
      status,
      message,
    });
    const rows = [
      row('neg', 'float32', 'pass'),
      row('neg', 'float64', 'fail'),
      row('exp', 'float32', 'skip', 'unsupported on jsdev: no kernel for aten::exp'),
      row('add', 'float32', 'pass'),
    ];
    const table = deviceConformance(rows, 'jsdev');
    const unary = table.find((f) => f.family === 'unary')!;
    const claims = (n: string) => opDb.find((i) => i.name === n)!.dtypes.cpu.length;
    expect(unary).toMatchObject({ ops: 2, opsPassing: 0, pass: 1, ruler: claims('neg') + claims('exp') });
    expect(unary.instances).toEqual({ pass: 1, fail: 1, unsupported: 1, skip: 0 });
    expect(table.at(-1)).toMatchObject({ family: 'total', ops: 3, pass: 2 });
    const text = formatConformance('jsdev', table);
    expect(text).toMatch(/^jsdev: conformance per op family/);
    expect(text).toMatch(/\nunary\s+2\s+0\s+1\s+1\s+1\s+0\s+1 \/ \d+\s+\d+\.\d%/);
  });
});

describe('opgate run --device jsdev', () => {
  const dir = mkdtempSync(join(tmpdir(), 'opgate-jsdev-'));
  const db = join(dir, 'jsdev.db');
  const SELECT = ['--device', 'jsdev', '--op', 'add,neg,sum,tanh,zeros,nn.functional.relu'];

  test('runs the cross-backend oracle on jsdev, stores it, and prints conformance per op family', () => {
    const r = opgate(['run', '--config', CONFIG, ...SELECT, '--db', db]);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/jsdev: conformance per op family/);
    expect(r.stdout).toMatch(/\nbinary\s+1\s+0\s+\d+\s+0\s+\d+\s+0\s+\d+ \/ \d+/);
    expect(r.stdout).toMatch(/\ntotal\s+6\s+/);
    const store = new ResultsStore(db);
    try {
      const rows = store.results(store.lastRunId()!);
      expect(rows.every((x) => x.oracle === 'crossbackend' && x.device === 'jsdev')).toBe(true);
      expect(rows.filter((x) => x.status === 'fail')).toEqual([]);
      const passed = new Set(rows.filter((x) => x.status === 'pass').map((x) => x.op));
      expect([...passed].sort()).toEqual(['add', 'neg', 'nn.functional.relu', 'sum', 'zeros']);
      const tanh = rows.filter((x) => x.op === 'tanh' && x.dtype === 'float32');
      expect(tanh.map((x) => [x.status, x.message])).toContainEqual([
        'skip',
        'unsupported on jsdev: no kernel for aten::tanh',
      ]);
    } finally {
      store.close();
    }
  }, 240_000);

  // CI installs Chromium and sets OPGATE_REQUIRE_BROWSER, so this never silently skips there.
  test.runIf(existsSync('/usr/bin/chromium') || process.env.OPGATE_REQUIRE_BROWSER === '1')(
    "the dashboards' coverage view scores jsdev, per op family too (in Chromium)",
    async () => {
      const dash = await serveDashboard({ db, port: 0, repo: null });
      const context = await launchChromium();
      try {
        const page = await context.newPage();
        await page.goto(`${dash.url}#/coverage`);
        await page.waitForSelector('.view[data-view="coverage"][data-ready=""]', { timeout: 15_000 });
        const devices = await page
          .locator('table[data-testid="scores"] tbody tr')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-device')));
        expect(devices).toEqual(['cpu', 'meta', 'webgpu', 'jsdev']);
        const jsdevScore = await page
          .locator('table[data-testid="scores"] tr[data-device="jsdev"] td.score')
          .textContent();
        expect(Number.parseFloat(jsdevScore ?? '')).toBeGreaterThan(0);
        const binary = page.locator(
          'table[data-testid="families"] tr[data-family="binary"] td[data-device="jsdev"]',
        );
        expect(await binary.textContent()).toMatch(/^\d+(\.\d+)?% \d+ \/ \d+$/);
        const title = await binary.getAttribute('title');
        expect(title).toMatch(/^binary on jsdev: \d+ pass, 0 fail, \d+ unsupported/);
        const unary = page.locator(
          'table[data-testid="families"] tr[data-family="unary"] td[data-device="jsdev"]',
        );
        expect(Number.parseFloat((await unary.textContent()) ?? '')).toBeGreaterThan(0);
      } finally {
        await context.close();
        await dash.close();
      }
    },
    60_000,
  );

  test('a wrong kernel on the device (neg returns its input) fails the oracle: exit 1', () => {
    const r = opgate(
      ['run', '--config', CONFIG, '--device', 'jsdev', '--op', 'neg', '--db', join(dir, 'bad.db')],
      {
        JSDEV_FAULT: 'neg',
      },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAIL test_crossbackend_neg_jsdev_float32_contiguous_eager/);
    expect(r.stdout).toMatch(/jsdev output 0 \(float32\): \d+\/\d+ elements differ from cpu/);
    expect(r.stdout).toMatch(/\nunary\s+1\s+0\s+0\s+\d+\s+/);
  }, 240_000);

  test('without the config jsdev is no device; a config naming a device it does not register is E_FILE_INVALID', () => {
    const plain = opgate(['list', '--op', 'add', '--oracle', 'crossbackend']);
    expect(plain.status).toBe(0);
    expect(plain.stdout).not.toMatch(/jsdev/);
    const unknown = opgate(['list', '--op', 'add', '--device', 'jsdev']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown device 'jsdev'.*\[E_UNKNOWN_NAME\]/);
    const listed = opgate(['list', '--config', CONFIG, '--op', 'add', '--device', 'jsdev']);
    expect(listed.stdout).toMatch(/^test_crossbackend_add_jsdev_float32_contiguous_eager$/m);
    const invalid = opgate(['list', '--config', 'tests/fixtures/jsdev/no_device.config.ts']);
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toMatch(
      /devices names 'nodev', which its modules did not register.*\[E_FILE_INVALID\]/,
    );
  }, 240_000);
});
