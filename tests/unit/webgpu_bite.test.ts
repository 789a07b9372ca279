/**
 * The cross-backend oracle must catch a wrong GPU kernel: a hand-written WGSL exp kernel that indexes its input
 * as if it started at element 0 (it ignores the storage offset) replaces the real webgpu kernel; the oracle
 * fails on the offset layout, names sample, seed and repro, and the real kernel passes the same instance.
 * Also: without an adapter, the webgpu device says so clearly ("webgpu: no adapter — see README").
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import type { Layout, Oracle } from '../../op_db/index.ts';
import { expandMatrix } from '../../src/ci/index.ts';
import { runOracle } from '../../src/oracles/index.ts';
import { blockOf, gridFor, launch, Params } from '../../src/runtime/backends/webgpu/index.ts';
import { DispatchKey, type Kernel, NO_ADAPTER_MESSAGE, Tensor } from '../../src/runtime/index.ts';
import { oracleFailure, swapKernel } from './inject_helpers.ts';
import { describeWebGPU } from './webgpu_helpers.ts';

const instance = (oracle: Oracle, layout: Layout) => {
  const [inst] = expandMatrix('full', {
    op: ['exp'],
    oracle: [oracle],
    device: ['webgpu'],
    dtype: ['float32'],
    layout: [layout],
  });
  expect(inst).toBeDefined();
  return inst;
};

/** exp in WGSL reading `in[i]` for output element i: right for contiguous inputs at offset 0 only. */
const offsetIgnored: Kernel = (_ks, args) => {
  const self = args.self as Tensor;
  const out = Tensor.empty(self.shape, 'float32', 'webgpu');
  if (out.numel === 0) return out;
  const code = `@group(0) @binding(0) var<storage, read> P: array<u32>;
@group(0) @binding(1) var<storage, read_write> O: array<f32>;
@group(0) @binding(2) var<storage, read> X: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= P[0]) { return; }
  O[i] = exp(X[i]);
}`;
  launch({
    code,
    buffers: [blockOf(out.storage).buffer, blockOf(self.storage).buffer],
    params: new Params().u32(out.numel).array(),
    grid: gridFor(out.numel),
  });
  return out;
};

describeWebGPU('injected webgpu bugs are caught', () => {
  test('a WGSL kernel that ignores the storage offset fails the cross-backend oracle', async () => {
    const offset = instance('crossbackend', 'offset');
    const contiguous = instance('crossbackend', 'contiguous');
    expect((await runOracle(offset)).checks).toBeGreaterThan(0);
    swapKernel('exp', () => offsetIgnored, DispatchKey.WebGPU);
    // At offset 0 the bug is invisible: the oracle passes there, and fails where the offset matters.
    expect((await runOracle(contiguous)).checks).toBeGreaterThan(0);
    const f = await oracleFailure(() => runOracle(offset));
    expect(f.message).toMatch(/webgpu output 0 \(float32\): \d+\/\d+ elements differ from cpu/);
    expect(f.message).toMatch(/sample #\d+/);
    expect(f.message).toMatch(
      /repro: npx opgate repro test_crossbackend_exp_webgpu_float32_offset_eager --sample \d+/,
    );
  });

  test('the same bug fails the reference oracle on webgpu', async () => {
    swapKernel('exp', () => offsetIgnored, DispatchKey.WebGPU);
    const f = await oracleFailure(() => runOracle(instance('reference', 'offset')));
    expect(f.message).toMatch(/elements differ/);
  });
});

test('without an adapter the webgpu device says why and points at the README', () => {
  // A Dawn backend this machine does not have gives no adapter, as on a machine without Mesa.
  const script = `
    import { initWebGPU, tensor, webgpuUnavailableReason } from './src/runtime/index.ts';
    const info = await initWebGPU();
    let code = '';
    try { tensor([1], { dtype: 'float32', device: 'webgpu' }); } catch (e) { code = e.code; }
    console.log(JSON.stringify({ info, reason: webgpuUnavailableReason(), code }));
    process.exit(0);`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: { ...process.env, OPGATE_WEBGPU_BACKEND: 'd3d12' },
    encoding: 'utf8',
  });
  const r = JSON.parse(out.trim().split('\n').pop()!);
  expect(r.info).toBeNull();
  expect(r.reason).toContain(NO_ADAPTER_MESSAGE);
  expect(r.code).toBe('E_NO_ADAPTER');
});
