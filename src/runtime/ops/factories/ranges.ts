/**
 * The range factories: arange (its aten checks, int64 exact) and linspace (PyTorch's two-sided sequence, rounded
 * as each dtype's kernel rounds), written by sequence_write.ts on the host or as a WGSL sequence.
 */

import { type Sequence, sequenceGPU, uploadStorage } from '../../backends/webgpu/index.ts';
import {
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  getDefaultDType,
  InvalidArgumentError,
  int,
  type Scalar,
  Tensor,
  toComplexDType,
} from '../../core/index.ts';
import type { BoundArgs } from '../../dispatch/index.ts';
import { defineOp } from '../structured.ts';
import { create, OPTS, scalarArg, tags } from './create.ts';
import { LINSPACE_ROUNDING, toIntegral, writeInt64Sequence, writeSequence } from './sequence_write.ts';

/** arange (both overloads) and linspace. */
export function registerRanges(): void {
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
