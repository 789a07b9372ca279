/**
 * aten's upsample ops (upsample_nearest{1,2,3}d, _upsample_nearest_exact{1,2,3}d, upsample_linear1d,
 * upsample_bilinear2d, upsample_bicubic2d, upsample_trilinear3d), each with its explicit-scales overload, the .vec
 * overload F.interpolate calls (output_size or scale_factors), and both out= forms. (F.interpolate's mode='area' is aten's adaptive_avg_pool{1,2,3}d.)
 *
 * One cpu kernel (upsample_kernel.ts) serves every kind over 1-3 spatial dims, from per-dim taps computed with
 * PyTorch's index arithmetic (upsample_taps.ts); its derivative is written in runtime ops, so it differentiates
 * again.
 */
import { defineDerivative } from '../../../autograd/index.ts';
import { resampleGPU } from '../../../backends/webgpu/index.ts';
import { DTYPE_INFO, InvalidArgumentError, ShapeMismatchError, type Tensor } from '../../../core/index.ts';
import { type BoundArgs, callOp } from '../../../dispatch/index.ts';
import { defineOut, notImplementedFor } from '../../op_helpers.ts';
import { defineOp, defineStructured, type OutSpec } from '../../structured.ts';
import { resampleBackward, resampleCpu, suggestedStrides, tapsFor } from './upsample_kernel.ts';
import type { TapKind, Taps } from './upsample_taps.ts';

/** One aten upsample op: its name, spatial rank, tap kind, and whether it takes align_corners. */
export interface UpsampleOp {
  readonly name: string;
  readonly dims: 1 | 2 | 3;
  readonly kind: TapKind;
  readonly aligned: boolean;
  /** The kernel name aten's dtype dispatch reports ("compute_indices_weights_linear" not implemented for 'Int'). */
  readonly kernel: string;
  /** uint8 is computed (nearest kinds only). */
  readonly bytes: boolean;
}

const op = (name: string, dims: 1 | 2 | 3, kind: TapKind, kernel: string): UpsampleOp => ({
  name,
  dims,
  kind,
  aligned: kind !== 'nearest' && kind !== 'nearest-exact',
  kernel,
  bytes: kind === 'nearest' || kind === 'nearest-exact',
});

export const UPSAMPLE_OPS: readonly UpsampleOp[] = [
  op('upsample_nearest1d', 1, 'nearest', 'compute_indices_weights_nearest'),
  op('upsample_nearest2d', 2, 'nearest', 'compute_indices_weights_nearest'),
  op('upsample_nearest3d', 3, 'nearest', 'compute_indices_weights_nearest'),
  op('_upsample_nearest_exact1d', 1, 'nearest-exact', 'compute_indices_weights_nearest'),
  op('_upsample_nearest_exact2d', 2, 'nearest-exact', 'compute_indices_weights_nearest'),
  op('_upsample_nearest_exact3d', 3, 'nearest-exact', 'compute_indices_weights_nearest'),
  op('upsample_linear1d', 1, 'linear', 'compute_indices_weights_linear'),
  op('upsample_bilinear2d', 2, 'linear', 'compute_indices_weights_linear'),
  op('upsample_trilinear3d', 3, 'linear', 'upsample_trilinear3d_channels_last'),
  op('upsample_bicubic2d', 2, 'cubic', 'compute_indices_weights_cubic'),
  op('_upsample_bilinear2d_aa', 2, 'aa-linear', 'compute_indices_weights_aa'),
  op('_upsample_bicubic2d_aa', 2, 'aa-cubic', 'compute_indices_weights_aa'),
];

const DIM_NAMES = { 1: ['W'], 2: ['H', 'W'], 3: ['D', 'H', 'W'] } as const;
const SCALE_NAMES = { 1: ['scales'], 2: ['scales_h', 'scales_w'], 3: ['scales_d', 'scales_h', 'scales_w'] };

/** upsample_{1,2,3}d_common_check: the sizes, then a non-empty input (a zero batch is allowed). */
export function upsampleShape(x: Tensor, size: readonly number[], u: UpsampleOp, opName: string): number[] {
  const k = u.dims;
  if (size.length !== k)
    throw new InvalidArgumentError(`It is expected output_size equals to ${k}, but got size ${size.length}`, {
      op: opName,
      arg: 'output_size',
      got: size.length,
      expected: k,
    });
  if (x.ndim !== k + 2)
    throw new ShapeMismatchError(`It is expected input_size equals to ${k + 2}, but got size ${x.ndim}`, {
      op: opName,
      arg: 'self',
      got: x.ndim,
      expected: k + 2,
    });
  const spatial = x.shape.slice(2);
  if (spatial.some((s) => s <= 0) || size.some((s) => s <= 0)) {
    const list = (v: readonly number[]) => v.map((s, i) => `${DIM_NAMES[k][i]}: ${s}`).join(', ');
    throw new InvalidArgumentError(
      `Input and output sizes should be greater than 0, but got input (${list(spatial)})${k === 1 ? ' and' : ''} output (${list(size)})`,
      { op: opName, arg: 'output_size', got: [...size], expected: 'sizes > 0' },
    );
  }
  if (x.numel === 0 && x.shape.slice(1).some((s) => s === 0))
    throw new ShapeMismatchError(
      `Non-empty ${k + 2}D data tensor expected but got a tensor with sizes [${x.shape.join(', ')}]`,
      { op: opName, arg: 'self', got: [...x.shape], expected: 'a non-empty tensor' },
    );
  return [x.shape[0], x.shape[1], ...size];
}

export function checkUpsampleDType(x: Tensor, u: UpsampleOp, opName: string): void {
  const kind = DTYPE_INFO[x.dtype].kind;
  if (kind !== 'float' && !(u.bytes && x.dtype === 'uint8'))
    throw notImplementedFor(u.kernel, x.dtype, opName, 'self', 'a floating dtype');
}

/** The explicit overload's per-dim scale factors (null: derived from the sizes). */
const scalesOf = (a: BoundArgs, u: UpsampleOp): (number | null)[] =>
  SCALE_NAMES[u.dims].map((n) => (a[n] as number | null | undefined) ?? null);

/** The explicit overload's call: checks, output spec and taps. */
function plan(a: BoundArgs, u: UpsampleOp, opName: string): { spec: OutSpec; taps: Taps[] } {
  const x = a.self as Tensor;
  const shape = upsampleShape(x, a.output_size as number[], u, opName);
  checkUpsampleDType(x, u, opName);
  const align = u.aligned ? (a.align_corners as boolean) : false;
  const taps = tapsFor(u.kind, x.shape.slice(2), shape.slice(2), align, scalesOf(a, u), x.dtype);
  return { spec: { shape, dtype: x.dtype, strides: suggestedStrides(x, shape), plan: taps }, taps };
}

/** compute_output_size of the .vec overloads: exactly one of output_size and scale_factors. */
export function vecOutputSize(
  x: Tensor,
  size: readonly number[] | null,
  factors: readonly number[] | null,
  opName: string,
): number[] {
  const k = x.ndim - 2;
  const fail = (message: string, arg: string) =>
    new InvalidArgumentError(message, { op: opName, arg, got: 'both or neither', expected: 'exactly one' });
  // compute_output_size's bare TORCH_CHECKs (PyTorch 1.13 words them from the condition).
  const bare = (what: string) =>
    `Expected static_cast<int64_t>(${what}->size()) == spatial_dimensions to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)`;
  if (size !== null) {
    if (factors !== null)
      throw fail('Must specify exactly one of output_size and scale_factors', 'scale_factors');
    if (size.length !== k) throw fail(bare('output_size'), 'output_size');
    return [...size];
  }
  if (factors !== null) {
    if (factors.length !== k) throw fail(bare('scale_factors'), 'scale_factors');
    // The double product truncated to int64.
    return factors.map((f, i) => Math.trunc(x.shape[i + 2] * f));
  }
  throw fail('Must specify exactly one of output_size and scale_factors', 'output_size');
}

/** A .vec call's arguments as the explicit overload's (output_size, align_corners, per-dim scales). */
function explicitArgs(a: BoundArgs, shape: readonly number[], u: UpsampleOp): BoundArgs {
  const factors = (a.scale_factors as number[] | null) ?? null;
  const like = { ndim: shape.length, shape } as Tensor;
  const size = vecOutputSize(like, (a.output_size as number[] | null) ?? null, factors, u.name);
  const scales = Object.fromEntries(SCALE_NAMES[u.dims].map((n, i) => [n, factors ? factors[i] : null]));
  return { output_size: size, align_corners: a.align_corners, ...scales };
}

function schemaArgs(u: UpsampleOp): { explicit: string; vec: string; call: (a: BoundArgs) => unknown[] } {
  const align = u.aligned ? ', bool align_corners' : '';
  const scales = SCALE_NAMES[u.dims].map((n) => `float? ${n}=None`).join(', ');
  return {
    explicit: `Tensor self, SymInt[${u.dims}] output_size${align}, ${scales}`,
    vec: `Tensor input, SymInt[]? output_size${align}, float[]? scale_factors`,
    call: (a) => {
      const x = a.input as Tensor;
      const e = explicitArgs(a, x.shape, u);
      return [
        x,
        e.output_size,
        ...(u.aligned ? [e.align_corners] : []),
        ...SCALE_NAMES[u.dims].map((n) => e[n]),
      ];
    },
  };
}

function registerUpsample(u: UpsampleOp): void {
  const s = schemaArgs(u);
  const tags = { family: 'nn' };
  const meta = (a: BoundArgs, name: string) => plan(a, u, name).spec;
  defineStructured({
    schema: `${u.name}(${s.explicit}) -> Tensor`,
    tags,
    meta,
    impl: {
      cpu: (a, out, _name, spec) => resampleCpu(a.self as Tensor, out, spec.plan as Taps[]),
      webgpu: (a, out, _name, spec) => resampleGPU(a.self as Tensor, out, spec.plan as Taps[]),
    },
  });
  // A structured kernel's out= takes exactly its dtype ("Expected out tensor to have dtype float, but got double").
  defineOut(
    `${u.name}.out(${s.explicit}, *, Tensor(a!) out) -> Tensor(a!)`,
    tags,
    meta,
    {
      cpu: (a, out, name) => resampleCpu(a.self as Tensor, out, plan(a, u, name).taps),
      webgpu: (a, out, name) => resampleGPU(a.self as Tensor, out, plan(a, u, name).taps),
    },
    'exact',
  );
  // One row serves every overload: the .vec ones (input, output_size or scale_factors) are differentiated as the
  // explicit call they make.
  defineDerivative(u.name, {
    saves: [],
    formula: (c) => {
      const shape = c.shapes.self ?? c.shapes.input;
      const args = c.shapes.self ? c.args : explicitArgs(c.args, shape, u);
      const align = u.aligned ? (args.align_corners as boolean) : false;
      const size = args.output_size as number[];
      const taps = tapsFor(u.kind, shape.slice(2), size, align, scalesOf(args, u), c.grad.dtype);
      return [resampleBackward(c.grad, shape, taps)];
    },
  });
  defineOp({
    schema: `${u.name}.vec(${s.vec}) -> Tensor`,
    tags: { ...tags, decomposed: true },
    composite: (a) => callOp(u.name, s.call(a)),
  });
  defineOp({
    schema: `${u.name}.vec_out(${s.vec}, *, Tensor(a!) out) -> Tensor(a!)`,
    tags: { ...tags, decomposed: true },
    composite: (a) => callOp(`${u.name}.out`, s.call(a), { out: a.out }),
  });
}

export function registerUpsampleOps(): void {
  for (const u of UPSAMPLE_OPS) registerUpsample(u);
}
