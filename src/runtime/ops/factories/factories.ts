/** Factories (empty, zeros, ones, full, arange, linspace, eye, *_like) and fill_. */

import { runPointwise } from '../../backends/cpu/index.ts';
import { fillGPU, type Sequence, sequenceGPU, uploadStorage } from '../../backends/webgpu/index.ts';
import {
  channelsLastStrides,
  checkNewTensor,
  contiguousStrides,
  type DeviceType,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  getDefaultDType,
  InvalidArgumentError,
  int,
  isNonOverlappingAndDense,
  parseDevice,
  pointwiseOutputStrides,
  type Scalar,
  scalarDType,
  Tensor,
  toComplexDType,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, callOp, operatorTable } from '../../dispatch/index.ts';
import { asScalar, scalarTo } from '../op_helpers.ts';
import { defineOp } from '../structured.ts';
import { LINSPACE_ROUNDING, toIntegral, writeInt64Sequence, writeSequence } from './sequence_write.ts';

const tags = { family: 'factory' } as const;
const OPTS = 'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None';

function deviceOf(a: BoundArgs, op: string, fallback: DeviceType = 'cpu'): DeviceType {
  return a.device ? parseDevice(a.device as string, op) : fallback;
}

/**
 * A Scalar argument's value. python_arg_parser binds a 0-dim tensor to a Scalar parameter and reads it with
 * item(), which a tensor without host data (meta, webgpu) cannot do.
 */
function scalarArg(v: unknown, op: string, arg: string): Scalar {
  if (v instanceof Tensor && v.storage.data === null)
    throw new InvalidArgumentError(`cannot read the value of a ${v.device} tensor as a Scalar (item())`, {
      op,
      arg,
      got: `a ${v.device} tensor`,
      expected: 'a number, a Scalar or a cpu tensor',
    });
  return asScalar(v as Scalar | Tensor);
}

const fillReal = (k: unknown) => k;
const fillComplex = (re: number, im: number) => [re, im];

/** The value a Scalar stores into a tensor of `dtype`, in the compute domain of that dtype. */
function fillValue(s: Scalar, dtype: DType): unknown {
  const info = DTYPE_INFO[dtype];
  // checked_convert: NaN / ±Infinity have no integral value (PyTorch raises the same message).
  if (info.kind === 'int' && !Number.isFinite(s.toNumber()))
    throw new InvalidArgumentError(`value cannot be converted to type ${info.torchName} without overflow`, {
      arg: 'value',
      got: s.toString(),
      expected: `a finite value for ${dtype}`,
    });
  const dom = info.domain;
  if (dom === 'big') return s.toBigInt();
  if (dom === 'complex') return [s.toNumber(), s.imag];
  return s.toNumber();
}

export function fillTensor(t: Tensor, s: Scalar): void {
  if (t.device === 'meta' || t.numel === 0) return;
  if (t.device === 'webgpu') {
    fillGPU(t, storageWords(s, t.dtype));
    return;
  }
  const v = fillValue(s, t.dtype);
  const complex = Array.isArray(v);
  runPointwise(
    {
      fn: complex ? fillComplex : fillReal,
      targets: [],
      value: t.dtype,
      scalars: [v],
      scalarDomainComplex: complex,
    },
    t,
    [],
  );
}

/**
 * The storage words of `s` stored as `dtype` on webgpu (int64: low, high), converted exactly as the cpu fill
 * converts it (by filling a one-element cpu tensor).
 */
function storageWords(s: Scalar, dtype: DType): number[] {
  const host = Tensor.empty([1], dtype, 'cpu');
  fillTensor(host, s);
  const v = host.storage.data![0];
  if (typeof v === 'bigint') return [Number(BigInt.asUintN(32, v)), Number(BigInt.asUintN(32, v >> 32n))];
  if (dtype === 'float32') return [new Uint32Array(Float32Array.of(v as number).buffer)[0]];
  return [v as number];
}

/**
 * A new tensor of `size` on the args' device; `fill` fills it, `zero` asks for zeros (cpu memory starts zeroed,
 * webgpu blocks come from a caching allocator and are filled explicitly).
 */
/**
 * fill_out's `value.to<scalar_t>()`: c10's checked conversion refuses a value outside the dtype's range (int8
 * 128, 127.5, float16 65520.0); bool takes any value (nonzero is True). Meta tensors convert nothing.
 */
function checkFill(s: Scalar, dtype: DType, op: string, arg: string): void {
  if (dtype !== 'bool') scalarTo(s, dtype, op, arg);
}

function create(
  size: readonly number[],
  a: BoundArgs,
  op: string,
  dtype: DType,
  fill: Scalar | null,
  like?: Tensor,
  zero = false,
): Tensor {
  const device = deviceOf(a, op, like?.device ?? 'cpu');
  checkNewTensor(size, DTYPE_INFO[dtype].itemsize, device, op);
  const t = Tensor.empty(
    size,
    dtype,
    device,
    like ? likeStrides(like, a.memory_format as string | null | undefined) : contiguousStrides(size),
  );
  if (fill && device !== 'meta') checkFill(fill, dtype, op, 'fill_value');
  if (fill) fillTensor(t, fill);
  else if (zero && t.device === 'webgpu') fillTensor(t, int(0));
  return t;
}

/**
 * empty_like's layout: preserve_format (the default) keeps the strides of a dense, non-overlapping input and
 * otherwise lays the result out densely in the input's dim order (infer_dense_strides, as TensorIterator does).
 */
function likeStrides(like: Tensor, memoryFormat: string | null | undefined): readonly number[] {
  if (memoryFormat === 'contiguous_format') return contiguousStrides(like.shape);
  if (memoryFormat === 'channels_last') return channelsLastStrides(like.shape);
  if (isNonOverlappingAndDense(like.shape, like.strides)) return like.strides;
  return pointwiseOutputStrides(like.shape, [like]);
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const FACTORY_API = {
  empty: 'function',
  zeros: 'function',
  ones: 'function',
  full: 'function',
  arange: 'function',
  linspace: 'function',
  eye: 'function',
  empty_like: 'function',
  zeros_like: 'function',
  ones_like: 'function',
  full_like: 'function',
  fill_: 'method',
  zero_: 'method',
} as const satisfies ApiDecl;

export function registerFactories(): void {
  const simple = (name: string, fill: number | null) => {
    const one = fill === null ? null : int(fill);
    const zero = name === 'zeros';
    defineOp({
      // PyTorch's overload is empty.memory_format; zeros/ones have no overload name.
      schema: `${name}${name === 'empty' ? '.memory_format' : ''}(SymInt[] size, *, ${OPTS}${name === 'empty' ? ', MemoryFormat? memory_format=None' : ''}) -> Tensor`,
      tags,
      composite: (a) =>
        create(
          a.size as number[],
          a,
          name,
          (a.dtype as DType | null) ?? getDefaultDType(),
          one,
          undefined,
          zero,
        ),
    });
    defineOp({
      schema: `${name}_like(Tensor self, *, ${OPTS}, MemoryFormat? memory_format=None) -> Tensor`,
      tags,
      composite: (a) => {
        const self = a.self as Tensor;
        return create(
          self.shape,
          a,
          `${name}_like`,
          (a.dtype as DType | null) ?? self.dtype,
          one,
          self,
          zero,
        );
      },
    });
  };
  simple('empty', null);
  simple('zeros', null);
  simple('ones', 1);

  defineOp({
    schema: `full(SymInt[] size, Scalar fill_value, *, ${OPTS}) -> Tensor`,
    tags,
    composite: (a) => {
      const v = scalarArg(a.fill_value, 'full', 'fill_value');
      return create(a.size as number[], a, 'full', (a.dtype as DType | null) ?? scalarDType(v.kind), v);
    },
  });
  defineOp({
    schema: `full_like(Tensor self, Scalar fill_value, *, ${OPTS}, MemoryFormat? memory_format=None) -> Tensor`,
    tags,
    composite: (a) => {
      const self = a.self as Tensor;
      return create(
        self.shape,
        a,
        'full_like',
        (a.dtype as DType | null) ?? self.dtype,
        scalarArg(a.fill_value, 'full_like', 'fill_value'),
        self,
      );
    },
  });
  defineOp({
    schema: `arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ${OPTS}) -> Tensor`,
    tags,
    composite: (a) =>
      arange(
        scalarArg(a.start, 'arange', 'start'),
        scalarArg(a.end, 'arange', 'end'),
        scalarArg(a.step, 'arange', 'step'),
        a,
      ),
  });
  defineOp({
    schema: `arange(Scalar end, *, ${OPTS}) -> Tensor`,
    tags,
    composite: (a) => arange(int(0), scalarArg(a.end, 'arange', 'end'), int(1), a),
  });
  defineOp({
    schema: `linspace(Scalar start, Scalar end, int steps, *, ${OPTS}) -> Tensor`,
    tags,
    composite: (a) => {
      const steps = a.steps as number;
      if (steps < 0)
        throw new InvalidArgumentError('number of steps must be non-negative', {
          op: 'linspace',
          arg: 'steps',
          got: steps,
          expected: '>= 0',
        });
      const dtype = (a.dtype as DType | null) ?? getDefaultDType();
      // PyTorch 1.13 refuses bool for steps >= 2 ("linspace_cpu" not implemented for 'Bool'); we refuse it always.
      if (dtype === 'bool') {
        throw new DTypeUnsupportedError(`"linspace_cpu" not implemented for 'Bool'`, {
          op: 'linspace',
          arg: 'dtype',
          got: dtype,
          expected: 'a non-bool dtype',
        });
      }
      const start = scalarArg(a.start, 'linspace', 'start').toNumber();
      const end = scalarArg(a.end, 'linspace', 'end').toNumber();
      const t = create([steps], a, 'linspace', dtype, null);
      if (t.device !== 'meta') {
        // PyTorch fills the first half from start and the second half from end (symmetric rounding). Floating
        // dtypes compute the step in their own precision (step_t = scalar_t), integral ones in double; float32
        // rounds once per element (its kernel's multiply-add is fused), half types round after every op.
        const r = LINSPACE_ROUNDING[dtype] ?? ((x: number) => x);
        const half16 = dtype === 'float16' || dtype === 'bfloat16';
        // An integral dtype converts start and end to itself first (`scalar_start.to<scalar_t>()`: 0.5 -> 0).
        const own = (v: number) => (DTYPE_INFO[dtype].kind === 'int' ? toIntegral(v, dtype) : r(v));
        const s0 = own(start);
        const e0 = own(end);
        const step = steps > 1 ? r(r(e0 - s0) / r(steps - 1)) : 0;
        const mid = Math.floor(steps / 2);
        const mul = (k: number) => (half16 ? r(step * r(k)) : step * k);
        // steps == 1 is start (aten fills it), not end.
        // webgpu: float32 runs the same two-sided sequence in float32; integral dtypes are computed on the host
        // (their values truncate float64 arithmetic, which WGSL does not have).
        const seq: Sequence | null =
          dtype === 'float32' ? { start: s0, end: e0, step, mid: steps === 1 ? 1 : mid, type: 'f32' } : null;
        writeSequence(
          t,
          (i) => (steps === 1 ? s0 : i < mid ? r(s0 + mul(i)) : r(e0 - mul(steps - i - 1))),
          seq,
        );
      }
      return t;
    },
  });
  const eye = (n: number, m: number, a: BoundArgs) => {
    if (n < 0)
      throw new InvalidArgumentError(`n must be greater or equal to 0, got ${n}`, {
        op: 'eye',
        arg: 'n',
        got: n,
        expected: '>= 0',
      });
    if (m < 0)
      throw new InvalidArgumentError(`m must be greater or equal to 0, got ${m}`, {
        op: 'eye',
        arg: 'm',
        got: m,
        expected: '>= 0',
      });
    const t = create([n, m], a, 'eye', (a.dtype as DType | null) ?? getDefaultDType(), null, undefined, true);
    if (t.device !== 'meta') {
      const diag = callOp('diagonal', [t]) as Tensor;
      fillTensor(diag, int(1));
    }
    return t;
  };
  defineOp({
    schema: `eye(SymInt n, *, ${OPTS}) -> Tensor`,
    tags,
    composite: (a) => eye(a.n as number, a.n as number, a),
  });
  defineOp({
    schema: `eye.m(SymInt n, SymInt m, *, ${OPTS}) -> Tensor`,
    tags,
    composite: (a) => eye(a.n as number, a.m as number, a),
  });
  defineOp({
    schema: 'fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => {
      const self = a.self as Tensor;
      // No internal-overlap check: filling is idempotent, so PyTorch fills an expanded self (fill_out disables
      // TensorIterator's overlap check); x.expand(2, 3).fill_(1) writes the shared elements.
      // A meta tensor has nothing to fill (and a meta value nothing to read).
      if (self.device !== 'meta') {
        const value = scalarArg(a.value, 'fill_', 'value');
        checkFill(value, self.dtype, 'fill_', 'value');
        fillTensor(self, value);
      }
      self.bumpVersion();
      return self;
    },
  });
  defineOp({
    // PyTorch's fill_.Tensor: a 0-dim value tensor, differentiable in the value (its gradient is the sum of
    // self's). A value the host can read and that needs no gradient fills as fill_.Scalar does (PyTorch reads it
    // with item()), an expanded self included. Otherwise copy_ broadcasts it into self: no read-back of a webgpu
    // value, and autograd records the copy (autograd/register.ts: DECOMPOSED).
    schema: 'fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => {
      const self = a.self as Tensor;
      const value = a.value as Tensor;
      if (value.ndim !== 0)
        throw new InvalidArgumentError(
          `fill_ only supports 0-dimension value tensor but got tensor with ${value.ndim} dimensions.`,
          { op: 'fill_', arg: 'value', got: `${value.ndim} dimensions`, expected: '0 dimensions' },
        );
      if (!value.requiresGrad && value.storage.data !== null) return callOp('fill_', [self, asScalar(value)]);
      return callOp('copy_', [self, value]);
    },
  });
  defineOp({
    schema: 'zero_(Tensor(a!) self) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => callOp('fill_', [a.self, 0]),
  });
  operatorTable.declare(FACTORY_API);
}

function arange(start: Scalar, end: Scalar, step: Scalar, a: BoundArgs): Tensor {
  checkRange(start, end, step);
  const kinds = [start.kind, end.kind, step.kind];
  const inferred: DType = kinds.includes('complex')
    ? toComplexDType(getDefaultDType())
    : kinds.includes('float')
      ? getDefaultDType()
      : 'int64';
  const dtype = (a.dtype as DType | null) ?? inferred;
  if (dtype === 'bool' || DTYPE_INFO[dtype].kind === 'complex') {
    throw new DTypeUnsupportedError(`"arange_cpu" not implemented for '${DTYPE_INFO[dtype].torchName}'`, {
      op: 'arange',
      arg: 'dtype',
      got: dtype,
      expected: 'an integer or floating dtype',
    });
  }
  if (dtype === 'int64') return arangeInt64(start.toBigInt(), end.toBigInt(), step.toBigInt(), a);
  // An integral dtype's kernel works in int64 (acc_type): start, end and step are truncated for the checks and the
  // values (step 0.5 is "step must be nonzero"); its size comes from the bounds as given, in double.
  const integer = DTYPE_INFO[dtype].kind === 'int';
  const s = integer ? Math.trunc(start.toNumber()) : start.toNumber();
  const e = integer ? Math.trunc(end.toNumber()) : end.toNumber();
  const st = integer ? Math.trunc(step.toNumber()) : step.toNumber();
  if (st === 0)
    throw new InvalidArgumentError('step must be nonzero', {
      op: 'arange',
      arg: 'step',
      got: 0,
      expected: 'nonzero',
    });
  if ((e - s) / st < 0) {
    throw new InvalidArgumentError('upper bound and larger bound inconsistent with step sign', {
      op: 'arange',
      arg: 'end',
      got: e,
      expected: st > 0 ? `>= ${s}` : `<= ${s}`,
    });
  }
  const n = integer
    ? Math.ceil((end.toNumber() - start.toNumber()) / step.toNumber())
    : Math.ceil((e - s) / st);
  const t = create([n], a, 'arange', dtype, null);
  if (t.device !== 'meta') {
    // webgpu: float32 in float32 arithmetic (like CUDA's arange), integral dtypes in exact wrapping i32 when
    // the bounds are integral; anything else is computed on the host.
    const integral = integer || (Number.isInteger(s) && Number.isInteger(st) && dtype !== 'float32');
    const seq: Sequence | null =
      dtype === 'float32' || integral
        ? { start: s, end: 0, step: st, mid: n, type: integral ? 'i32' : 'f32' }
        : null;
    writeSequence(t, (i) => s + i * st, seq);
  }
  return t;
}

/** A double as C++'s ostream prints it: inf, -inf, nan (JS says Infinity, NaN). */
const cNumber = (v: number) =>
  Number.isNaN(v) ? 'nan' : Number.isFinite(v) ? String(v) : v > 0 ? 'inf' : '-inf';

/** aten's arange checks: finite bounds ("unsupported range") and a finite step, before any size is computed. */
function checkRange(start: Scalar, end: Scalar, step: Scalar): void {
  const [s, e, st] = [start.toNumber(), end.toNumber(), step.toNumber()];
  if (!Number.isFinite(s) || !Number.isFinite(e))
    throw new InvalidArgumentError(`unsupported range: ${cNumber(s)} -> ${cNumber(e)}`, {
      op: 'arange',
      arg: Number.isFinite(s) ? 'end' : 'start',
      got: Number.isFinite(s) ? e : s,
      expected: 'a finite bound',
    });
  if (!Number.isFinite(st) || !Number.isFinite(step.imag) || !Number.isFinite(start.imag + end.imag))
    throw new InvalidArgumentError('step must be finite', {
      op: 'arange',
      arg: 'step',
      got: step.toString(),
      expected: 'a finite nonzero step',
    });
}

/** int64 arange is exact: the bounds are truncated to int64 and the size and values use integer math (aten). */
function arangeInt64(s: bigint, e: bigint, st: bigint, a: BoundArgs): Tensor {
  if (st === 0n)
    throw new InvalidArgumentError('step must be nonzero', {
      op: 'arange',
      arg: 'step',
      got: 0,
      expected: 'nonzero',
    });
  if ((st > 0n && e < s) || (st < 0n && e > s)) {
    throw new InvalidArgumentError('upper bound and larger bound inconsistent with step sign', {
      op: 'arange',
      arg: 'end',
      got: e,
      expected: st > 0n ? `>= ${s}` : `<= ${s}`,
    });
  }
  const sgn = st > 0n ? 1n : -1n;
  const n = Number((e - s + st - sgn) / st);
  const t = create([n], a, 'arange', 'int64', null);
  if (t.device === 'webgpu') {
    // Within the i32 range the kernel's i32 values, sign-extended, are exact; beyond it the host computes.
    const last = s + st * BigInt(Math.max(n - 1, 0));
    const fits = (v: bigint) => v >= -(2n ** 31n) && v < 2n ** 31n;
    if (fits(s) && fits(last) && fits(st)) {
      sequenceGPU(t, { start: Number(s), end: 0, step: Number(st), mid: n, type: 'i32' });
      return t;
    }
    const host = Tensor.empty(t.shape, 'int64', 'cpu');
    writeInt64Sequence(host, s, st);
    uploadStorage(t.storage, host.storage);
  } else if (t.device !== 'meta') writeInt64Sequence(t, s, st);
  return t;
}
