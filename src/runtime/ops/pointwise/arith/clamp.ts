/**
 * clamp with Scalar? bounds and with Tensor? bounds (+ clamp_, clamp.out, clamp.Tensor_out). Not a table row:
 * the Scalar bounds take part in type promotion, either may be None, and PyTorch 1.13 picks a different CPU
 * kernel (with its own dtype coverage and NaN behaviour) for min-only, max-only and both.
 */

import { runPointwise, type ScalarFn } from '../../../backends/cpu/index.ts';
import { computeValue, runPointwiseGPU, type WgslValue } from '../../../backends/webgpu/index.ts';
import {
  broadcastAll,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  InvalidArgumentError,
  isFloatingDType,
  type PromotionOperand,
  pointwiseOutputStrides,
  promotionOperand,
  ResultTypeError,
  resultType,
  type Scalar,
  Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { asScalar, gpuOperands, notImplementedFor, scalarKindOf, scalarTo } from '../../op_helpers.ts';
import { defineStructured, type OutSpec } from '../../structured.ts';
import {
  clampBigInt as bigBoth,
  clampLowerBigInt as bigLower,
  clampUpperBigInt as bigUpper,
  clampNumber as both,
  clampLower as lower,
  clampUpper as upper,
} from '../unary_math.ts';

type Bound = Scalar | Tensor | null;

/** at::clamp's result when a bound is NaN (module-level: compiled loops are cached by function identity). */
const nanFill = () => Number.NaN;

const noneError = (op: string) =>
  new InvalidArgumentError("torch.clamp: At least one of 'min' or 'max' must not be None", {
    op,
    arg: 'min',
    got: 'None',
    expected: 'min or max',
  });
const complexError = (op: string, dtype: DType) =>
  new DTypeUnsupportedError('clamp is not supported for complex types', { op, arg: 'self', got: dtype });

/**
 * Our binder lets a 0-dim tensor bind to a Scalar? parameter; PyTorch's parser tries clamp.Tensor first, so
 * when every given bound is a (non-wrapped) tensor the Tensor overload's semantics apply.
 */
function boundsAreTensors(args: BoundArgs): boolean {
  const given = [args.min, args.max].filter((b) => b !== null);
  return given.length > 0 && given.every((b) => b instanceof Tensor && !b.isWrappedNumber);
}

/** TORCH_META_FUNC(clamp): a floating self keeps its dtype; otherwise self and the bounds are promoted. */
function scalarMeta(args: BoundArgs, op: string): OutSpec {
  if (boundsAreTensors(args)) return tensorMeta(args, op);
  const self = args.self as Tensor;
  const min = args.min as Bound;
  const max = args.max as Bound;
  if (min === null && max === null) throw noneError(op);
  if (DTYPE_INFO[self.dtype].kind === 'complex') throw complexError(op, self.dtype);
  let dtype = self.dtype;
  if (!isFloatingDType(dtype)) {
    const operands: PromotionOperand[] = [promotionOperand(self)];
    for (const b of [min, max])
      if (b !== null) operands.push({ kind: 'scalar', scalarKind: scalarKindOf(b) });
    dtype = resultType(operands);
    if (DTYPE_INFO[dtype].kind === 'complex') throw complexError(op, dtype);
  }
  return { shape: self.shape, dtype, strides: pointwiseOutputStrides(self.shape, [self]) };
}

/** The scalar overload's compute dtype, refused like the cpu kernel PyTorch picks for the given bounds. */
function scalarCompute(args: BoundArgs, op: string): DType {
  const compute = scalarMeta(args, op).dtype;
  const kernel =
    args.min !== null && args.max !== null
      ? 'clamp_scalar_cpu'
      : args.min !== null
        ? 'clamp_min_cpu'
        : 'clamp_max_scalar_cpu';
  if (compute === 'bool' || compute === 'float16') throw notImplementedFor(kernel, compute, op);
  return compute;
}

function scalarImpl(args: BoundArgs, out: Tensor, op: string): void {
  if (boundsAreTensors(args)) {
    tensorImpl(args, out, op);
    return;
  }
  const self = args.self as Tensor;
  const min = args.min as Bound;
  const max = args.max as Bound;
  const compute = scalarCompute(args, op);
  const lo = min === null ? null : scalarTo(asScalar(min), compute, op, 'min');
  const hi = max === null ? null : scalarTo(asScalar(max), compute, op, 'max');
  const big = compute === 'int64';
  let fn: ScalarFn;
  let scalars: unknown[];
  if (lo !== null && hi !== null) {
    // at::clamp with a NaN bound fills the result with NaN rather than running the kernel.
    const nanBound =
      (typeof lo === 'number' && Number.isNaN(lo)) || (typeof hi === 'number' && Number.isNaN(hi));
    fn = nanBound ? nanFill : big ? bigBoth : both;
    scalars = [lo, hi];
  } else if (lo !== null) [fn, scalars] = [big ? bigLower : lower, [lo]];
  else [fn, scalars] = [big ? bigUpper : upper, [hi]];
  runPointwise(
    {
      fn,
      targets: [compute],
      value: compute,
      scalars,
      scalarDomainComplex: false,
    },
    out,
    [self],
  );
}

function tensorInputs(args: BoundArgs): Tensor[] {
  const min = args.min as Tensor | null;
  const max = args.max as Tensor | null;
  return [args.self as Tensor, ...(min ? [min] : []), ...(max ? [max] : [])];
}

/** TORCH_META_FUNC2(clamp, Tensor): a TensorIterator over self and the given bounds, promoted to a common dtype. */
function tensorMeta(args: BoundArgs, op: string): OutSpec {
  const self = args.self as Tensor;
  if (args.min === null && args.max === null) throw noneError(op);
  if (DTYPE_INFO[self.dtype].kind === 'complex') throw complexError(op, self.dtype);
  const inputs = tensorInputs(args);
  const dtype = resultType(inputs.map(promotionOperand));
  const shape = broadcastAll(
    inputs.map((t) => t.shape),
    op,
  );
  return {
    shape,
    dtype,
    strides: pointwiseOutputStrides(
      shape,
      inputs.filter((t) => !t.isWrappedNumber),
    ),
  };
}

// maximum / minimum / clamp_cpu over tensors propagate a NaN from any operand.
const tensorBoth = (x: number, lo: number, hi: number) =>
  Number.isNaN(lo) || Number.isNaN(hi) ? Number.NaN : both(x, lo, hi);
const tensorLower = (x: number, lo: number) => (Number.isNaN(lo) ? lo : lower(x, lo));
const tensorUpper = (x: number, hi: number) => (Number.isNaN(hi) ? hi : upper(x, hi));

/** The Tensor overload's compute dtype, refused like maximum / minimum / clamp_cpu. */
function tensorCompute(args: BoundArgs, op: string): DType {
  const compute = tensorMeta(args, op).dtype;
  const kind = DTYPE_INFO[compute].kind;
  const hasMin = args.min !== null;
  const hasMax = args.max !== null;
  // Min-only / max-only run maximum / minimum, which also cover bool and float16; both bounds run clamp_cpu.
  if (hasMin && hasMax) {
    if (compute === 'bool' || compute === 'float16' || kind === 'complex')
      throw notImplementedFor('clamp_cpu', compute, op);
  } else if (kind === 'complex') {
    throw notImplementedFor(hasMin ? 'maximum_cpu' : 'minimum_cpu', compute, op);
  }
  return compute;
}

function tensorImpl(args: BoundArgs, out: Tensor, op: string): void {
  const inputs = tensorInputs(args);
  const compute = tensorCompute(args, op);
  const big = compute === 'int64';
  const hasMin = args.min !== null;
  const hasMax = args.max !== null;
  const fn: ScalarFn =
    hasMin && hasMax
      ? big
        ? bigBoth
        : tensorBoth
      : hasMin
        ? big
          ? bigLower
          : tensorLower
        : big
          ? bigUpper
          : tensorUpper;
  runPointwise(
    { fn, targets: inputs.map(() => compute), value: compute, scalars: [], scalarDomainComplex: false },
    out,
    inputs,
  );
}

/**
 * The WGSL clamp of `a` by `lo` / `hi` (names of loaded values; null when absent). f32 tests NaN with bit tests
 * (GLSL-backed Dawn compares NaN unreliably): a NaN `a` stays; a NaN bound gives NaN, except a lone Scalar
 * bound, which (like the cpu's std::max / std::min argument order) leaves `a` unchanged.
 */
function clampExpr(vt: WgslValue, lo: string | null, hi: string | null, tensorBounds: boolean): string {
  let e = 'a';
  if (lo) e = `select(${e}, ${lo}, ${e} < ${lo})`;
  if (hi) e = `select(${e}, ${hi}, ${hi} < ${e})`;
  if (vt !== 'f32') return e;
  const names = ['a', lo, hi].filter((n) => n !== null);
  const anyNan = names.map((n) => `is_nan(${n})`).join(' || ');
  const nanResult = tensorBounds || (lo && hi) ? names.join(' + ') : 'a';
  return `select(${e}, ${nanResult}, ${anyNan})`;
}

function scalarWebGPU(args: BoundArgs, out: Tensor, op: string): void {
  if (boundsAreTensors(args)) {
    tensorWebGPU(args, out, op);
    return;
  }
  const compute = scalarCompute(args, op);
  const vt = computeValue(compute, op);
  const bounds = [args.min as Bound, args.max as Bound];
  const scalars = bounds.flatMap((b, i) =>
    b === null ? [] : [{ value: scalarTo(asScalar(b), compute, op, i ? 'max' : 'min') as number, type: vt }],
  );
  const [lo, hi] = bounds[0] === null ? [null, 's0'] : [`s0`, bounds[1] === null ? null : 's1'];
  runPointwiseGPU({ expr: clampExpr(vt, lo, hi, false), exprType: vt, loads: [vt], scalars }, out, [
    args.self as Tensor,
  ]);
}

function tensorWebGPU(args: BoundArgs, out: Tensor, op: string): void {
  const inputs = tensorInputs(args);
  const vt = computeValue(tensorCompute(args, op), op);
  const lo = args.min !== null ? 'b' : null;
  const hi = args.max !== null ? (lo ? 'c' : 'b') : null;
  const operands = gpuOperands(inputs);
  runPointwiseGPU(
    { expr: clampExpr(vt, lo, hi, true), exprType: vt, loads: inputs.map(() => vt), scalars: [] },
    out,
    operands,
  );
}

/** clamp.out is built like a unary op over `self.to(result_type)`, so its out dtype must match exactly. */
function iteratorOutRule(op: string, result: DType, out: DType): void {
  if (result !== out) {
    throw new ResultTypeError(
      `Found dtype ${DTYPE_INFO[out].torchName} but expected ${DTYPE_INFO[result].torchName}`,
      {
        op,
        arg: 'out',
        got: out,
        expected: result,
      },
    );
  }
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const CLAMP_API = {
  clamp: 'function, method',
  clamp_: 'method',
} as const satisfies ApiDecl;

export function registerClamp(): void {
  const tags = { family: 'pointwise' };
  defineStructured({
    schema: 'clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor',
    tags,
    inplace: true,
    out: true,
    outRule: iteratorOutRule,
    meta: scalarMeta,
    impl: { cpu: scalarImpl, webgpu: scalarWebGPU },
  });
  defineStructured({
    schema: 'clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor',
    tags,
    inplace: true,
    out: true,
    outRule: 'cast',
    outOverload: 'Tensor_out',
    meta: tensorMeta,
    impl: { cpu: tensorImpl, webgpu: tensorWebGPU },
  });
  operatorTable.declare(CLAMP_API);
}
