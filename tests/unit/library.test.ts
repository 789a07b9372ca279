/**
 * Custom ops (torch.library's shape): `myops::scale_shift` (2.0 * x + 1.0 by default) defined outside the op
 * families, with a strided cpu kernel, a fake (meta) kernel and a registered backward, reaches callOp, the `ops`
 * namespace, listOps, autograd and compile like a built-in op; a composite gets its gradient from its parts; each
 * bad registration is a coded error.
 */
import { describe, expect, test } from 'vitest';
import {
  callOp,
  explain,
  grad,
  library,
  listOps,
  ops,
  type Tensor,
  tensor,
} from '../../src/runtime/index.ts';
import { defineScaleShift, empty, scaleShiftCpu } from './myops_helpers.ts';
import { describeWebGPU, onWebGPU, readBack } from './webgpu_helpers.ts';

defineScaleShift();

// A composite: made of runtime ops, so it runs on every device and differentiates through its parts.
library.define('myops::cube_plus(Tensor x, Tensor y) -> Tensor');
library.impl('myops::cube_plus', 'composite', (x: Tensor, y: Tensor) =>
  callOp('add', [callOp('mul', [callOp('mul', [x, x]), x]), y]),
);

// A cpu kernel only: no fake, no backward.
library.define('myops::plain(Tensor x) -> Tensor');
library.impl('myops::plain', 'cpu', (x: Tensor) => callOp('neg', [x]));

const values = (t: unknown) => (t as Tensor).tolist();

describe('a custom op in the operator table', () => {
  test('callOp and ops.<namespace> reach the cpu kernel, with the schema defaults and keywords', () => {
    const x = tensor([1, 2, 3], { dtype: 'float32' });
    expect(values(callOp('myops::scale_shift', [x]))).toEqual([3, 5, 7]);
    expect(values(ops.myops.scale_shift(x, 3, { shift: 0 }))).toEqual([3, 6, 9]);
    expect(values(ops.aten.add(x, x))).toEqual([2, 4, 6]);
  });

  test('the kernel reads strides: a transposed input gives the transposed result', () => {
    const x = tensor(
      [
        [1, 2],
        [3, 4],
      ],
      { dtype: 'float64' },
    );
    const t = callOp('t', [x]) as Tensor;
    expect(values(callOp('myops::scale_shift', [t, 1, 10]))).toEqual([
      [11, 13],
      [12, 14],
    ]);
  });

  test('listOps lists it with its kernels', () => {
    const row = listOps().find((o) => o.name === 'myops::scale_shift');
    expect(row?.schema).toBe('scale_shift(Tensor x, float scale=2.0, float shift=1.0) -> Tensor');
    expect(row?.kernels).toEqual(expect.arrayContaining(['CPU', 'Meta', 'Autograd']));
  });

  test('the fake kernel gives meta outputs; an op without one is E_NOT_IMPLEMENTED on meta', () => {
    const m = empty([2, 5], { device: 'meta' });
    const r = callOp('myops::scale_shift', [m]) as Tensor;
    expect([r.device, r.shape]).toEqual(['meta', [2, 5]]);
    expect(() => callOp('myops::plain', [m])).toThrow(expect.objectContaining({ code: 'E_NOT_IMPLEMENTED' }));
  });

  test('the registered backward: d/dx (scale * x + shift) = scale', () => {
    const x = tensor([1, -2, 0.5], { dtype: 'float64', requiresGrad: true });
    const y = callOp('myops::scale_shift', [x, 3, 1]) as Tensor;
    const [g] = grad([callOp('sum', [y]) as Tensor], [x]);
    expect(g?.tolist()).toEqual([3, 3, 3]);
    expect(y.gradFn?.name).toBe('ScaleShiftBackward0');
  });

  test('a composite differentiates through its parts', () => {
    const x = tensor([1, 2], { dtype: 'float64', requiresGrad: true });
    const y = tensor([5, 5], { dtype: 'float64', requiresGrad: true });
    const z = callOp('myops::cube_plus', [x, y]) as Tensor;
    expect(z.tolist()).toEqual([6, 13]);
    const [gx, gy] = grad([callOp('sum', [z]) as Tensor], [x, y]);
    expect([gx?.tolist(), gy?.tolist()]).toEqual([
      [3, 12],
      [1, 1],
    ]);
    const m = callOp('myops::cube_plus', [empty([3], { device: 'meta' }), empty([3], { device: 'meta' })]);
    expect((m as Tensor).device).toBe('meta');
  });

  test('an op without a backward refuses an input that requires grad (never a silent zero gradient)', () => {
    const x = tensor([1, 2], { dtype: 'float32', requiresGrad: true });
    expect(() => callOp('myops::plain', [x])).toThrow(expect.objectContaining({ code: 'E_NOT_IMPLEMENTED' }));
  });

  test('compile traces through the fake; an op without one breaks the graph and says why', () => {
    const x = tensor([1, 2, 3], { dtype: 'float32' });
    const traced = explain((a: Tensor) => callOp('neg', [callOp('myops::scale_shift', [a])]), x);
    expect(traced.graphBreakCount).toBe(0);
    expect(traced.graphs.join('\n')).toContain('myops::scale_shift');
    const broken = explain((a: Tensor) => callOp('neg', [callOp('myops::plain', [callOp('exp', [a])])]), x);
    expect(broken.graphBreakCount).toBe(1);
    expect(broken.breakReasons[0]).toMatch(
      /myops::plain\(\) has no fake \(meta\) kernel.*library\.registerFake/,
    );
  });
});

describe('bad registrations are coded errors', () => {
  const code = (f: () => unknown, c: string) => expect(f).toThrow(expect.objectContaining({ code: c }));

  test('a schema without a namespace, or in one the runtime owns', () => {
    code(() => library.define('scale(Tensor x) -> Tensor'), 'E_INVALID_ARGUMENT');
    code(() => library.define('aten::my_add(Tensor x) -> Tensor'), 'E_RESERVED_NAMESPACE');
    code(() => library.define('prims::thing(Tensor x) -> Tensor'), 'E_RESERVED_NAMESPACE');
    code(() => library.define('myops::broken(Tensor x -> Tensor'), 'E_SCHEMA_PARSE');
  });

  test('a duplicate define, a second kernel for one device, a second backward', () => {
    code(() => library.define('myops::scale_shift(Tensor x) -> Tensor'), 'E_DUPLICATE_OP');
    code(() => library.impl('myops::scale_shift', 'cpu', scaleShiftCpu), 'E_DUPLICATE_OP');
    code(() => library.registerFake('myops::scale_shift', (x: Tensor) => x), 'E_DUPLICATE_OP');
    code(() => library.registerAutograd('myops::scale_shift', (_c, g) => g), 'E_DUPLICATE_OP');
  });

  test('an impl, fake or backward for an op never defined; an unknown device; a kernel that is no function', () => {
    code(() => library.impl('myops::nope', 'cpu', scaleShiftCpu), 'E_UNKNOWN_OP');
    code(() => library.registerFake('myops::nope', scaleShiftCpu), 'E_UNKNOWN_OP');
    code(() => library.registerAutograd('myops::nope', (_c, g) => g), 'E_UNKNOWN_OP');
    library.define('myops::late(Tensor x) -> Tensor');
    code(() => library.impl('myops::late', 'cuda' as 'cpu', scaleShiftCpu), 'E_INVALID_ARGUMENT');
    code(() => library.impl('myops::late', 'cpu', 42 as unknown as () => unknown), 'E_INVALID_ARGUMENT');
  });

  test("a kernel whose outputs do not match its schema: a number, a second output, another device's tensor", () => {
    library.define('myops::wrong(Tensor x, int how) -> Tensor');
    library.impl('myops::wrong', 'cpu', (x: Tensor, how: number) =>
      how === 0 ? 1.5 : how === 1 ? [x, x] : empty(x.shape, { device: 'meta' }),
    );
    const x = tensor([1, 2]);
    for (const how of [0, 1, 2]) code(() => callOp('myops::wrong', [x, how]), 'E_SCHEMA_MISMATCH');
  });

  test('a backward that returns the wrong number of gradients, or a number for one', () => {
    library.define('myops::bad_grad(Tensor x, float k) -> Tensor');
    library.impl('myops::bad_grad', 'composite', (x: Tensor, k: number) => callOp('mul', [x, k]));
    library.registerAutograd('myops::bad_grad', (_ctx, g) => [g, g, g]);
    const x = tensor([1, 2], { dtype: 'float64', requiresGrad: true });
    const y = callOp('myops::bad_grad', [x, 2]) as Tensor;
    code(() => grad([callOp('sum', [y]) as Tensor], [x]), 'E_SCHEMA_MISMATCH');
    // One per input, but a number where a gradient tensor belongs.
    library.define('myops::bad_grad_type(Tensor x) -> Tensor');
    library.impl('myops::bad_grad_type', 'composite', (x: Tensor) => callOp('mul', [x, 2]));
    library.registerAutograd('myops::bad_grad_type', () => [2 as unknown as Tensor]);
    const z = callOp('myops::bad_grad_type', [x]) as Tensor;
    code(() => grad([callOp('sum', [z]) as Tensor], [x]), 'E_SCHEMA_MISMATCH');
  });
});

describeWebGPU('a custom op on webgpu', () => {
  // The webgpu kernel, written in runtime ops (their webgpu kernels run it): the cpu kernel's values.
  library.impl('myops::scale_shift', 'webgpu', (x: Tensor, scale: number, shift: number) =>
    callOp('add', [callOp('mul', [x, scale]), shift]),
  );

  test('dispatch picks the webgpu kernel for a webgpu tensor', async () => {
    const x = tensor([0.5, -1, 4], { dtype: 'float32' });
    const g = callOp('myops::scale_shift', [onWebGPU(x), 3, 1]) as Tensor;
    expect(g.device).toBe('webgpu');
    expect(((await readBack(g)) as Tensor).tolist()).toEqual(values(callOp('myops::scale_shift', [x, 3, 1])));
  });

  test("a webgpu kernel returning another device's tensor is E_SCHEMA_MISMATCH", () => {
    library.define('myops::stays_on_cpu(Tensor x) -> Tensor');
    library.impl('myops::stays_on_cpu', 'webgpu', (x: Tensor) => empty(x.shape));
    expect(() => callOp('myops::stays_on_cpu', [onWebGPU(tensor([1, 2], { dtype: 'float32' }))])).toThrow(
      expect.objectContaining({ code: 'E_SCHEMA_MISMATCH' }),
    );
  });
});
