/** OpInfos for linalg.vector_norm and the legacy torch.norm (part of REDUCTION_OPINFOS, see reductions.ts). */
import { DTYPE_GROUPS, type DType, type Tensor } from '../../../src/runtime/index.ts';
import {
  call,
  defaultCall,
  dimRangeErrors,
  duplicateDims,
  otherFloat,
  reductionErrors,
  reductionSamples,
} from '../../families/reductions.ts';
import { opInfo } from '../../info.ts';
import { maker } from '../../make.ts';
import { normRef, pythonNormRef, vectorNormRef } from '../../refs/reductions.ts';
import type { OpInfo, SampleInput } from '../../types.ts';

const FLOAT_COMPLEX = DTYPE_GROUPS.floatingAndComplex;
const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;
const dtypeKw = (s: SampleInput) => (s.kwargs.dtype as DType | undefined) ?? null;
const realOf = (d: DType): DType => (d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d);

/**
 * linalg.vector_norm's dtype= must not narrow the input (PyTorch's check_linalg_norm_dtype: "the dtype of the
 * input (Double) should be convertible without narrowing to the specified dtype (Float)").
 */
const widerDType = (d: DType): DType | null => (d === 'float64' || d === 'complex128' ? null : otherFloat(d));

const ORDS = [1, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, 3, 0.5, -1, -2.5];

const vectorNorm = opInfo({
  name: 'linalg.vector_norm',
  op: 'linalg_vector_norm',
  family: 'reduction',
  dtypes: FLOAT_COMPLEX,
  sampleInputs: reductionSamples({
    dtypes: FLOAT_COMPLEX,
    dims: 'list',
    full: true,
    allDims: 'none',
    dtypeArg: widerDType,
    call: (c) => {
      const [args, kwargs] = defaultCall(c);
      return c.dim === undefined || c.kw ? [args, kwargs] : [[2, ...args], kwargs];
    },
    extra: (make) => {
      const x = make([3, 5]);
      const y = make([2, 3, 4]);
      const e = make([0, 4]);
      const out: SampleInput[] = [];
      for (const ord of ORDS) {
        out.push(call(x, [ord]), call(y, [ord, [0, -1], true]), call(y, [], { ord, dim: 1 }));
        // An empty reduction has an identity only for ord >= 0 (finite).
        if (ord >= 0 && ord !== Number.POSITIVE_INFINITY) out.push(call(e, [ord, 0]));
      }
      out.push(call(e, [Number.POSITIVE_INFINITY, 1], {}, 'empty tensor, non-empty dim'));
      return out;
    },
  }),
  ref: vectorNormRef,
  resultDType: (s) => realOf(dtypeKw(s) ?? inputDType(s)),
  errorInputs: reductionErrors([
    ...dimRangeErrors(true, [2]),
    {
      shape: [2, 3],
      dtype: 'float64',
      kwargs: { dtype: 'float32' },
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /should be convertible without narrowing to the specified dtype \(Float\)/,
    },
    duplicateDims([2]),
    {
      shape: [2, 3],
      dtype: 'int64',
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /Expected a floating point or complex tensor as input. Got Long/,
    },
    {
      shape: [2, 3],
      dtype: 'complex64',
      kwargs: { dtype: 'float64' },
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /dtype should be complex for complex inputs, but got Double/,
    },
    {
      shape: [2, 3],
      kwargs: { dtype: 'int64' },
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /dtype should be floating point or complex, but got Long/,
    },
    {
      shape: [0, 3],
      args: [Number.POSITIVE_INFINITY],
      code: 'E_INVALID_ARGUMENT',
      regex:
        /linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not have an identity/,
    },
    {
      shape: [0, 3],
      args: [-1, 0],
      code: 'E_INVALID_ARGUMENT',
      regex: /cannot compute the -1 norm on the dimension 0 ?because this dimension is empty/,
    },
    {
      shape: [2, 3],
      args: [2, 0],
      out: { shape: [3], dtype: 'float64' },
      code: 'E_RESULT_TYPE',
      regex: /Expected out tensor to have dtype float, but got double instead/,
    },
  ]),
});

/**
 * torch.norm: norm.Scalar (x, p=2) and norm.ScalarOpt_dim (x, p, dim, keepdim). Empty reductions are only
 * sampled with p >= 0: whether 1.13's legacy norm refuses p < 0 / inf there like linalg.vector_norm (the
 * runtime returns 0) is not verified against PyTorch.
 */
const norm = opInfo({
  name: 'norm',
  family: 'reduction',
  dtypes: FLOAT_COMPLEX,
  sampleInputs: reductionSamples({
    dtypes: FLOAT_COMPLEX,
    dims: 'list',
    full: true,
    call: (c) => {
      if (c.dim === undefined) return [[], {}];
      if (c.kw)
        return [[], { p: null, dim: c.dim, ...(c.keepdim === undefined ? {} : { keepdim: c.keepdim }) }];
      return [[2, c.dim, ...(c.keepdim === undefined ? [] : [c.keepdim])], {}];
    },
    extra: (make) => {
      const x = make([3, 5]);
      const y = make([2, 3, 4]);
      return [
        call(x, [3]),
        call(x, [], { p: 1 }),
        call(y, [Number.POSITIVE_INFINITY, [0, -1], true]),
        call(y, [Number.NEGATIVE_INFINITY, 1]),
        call(y, [0, [1]]),
        call(x, [-1.5, -1]),
        call(make([0, 4]), [1, 0]),
      ];
    },
  }),
  ref: normRef,
  resultDType: (s) => realOf(inputDType(s)),
  // norm.out exists only for norm.ScalarOpt_dim: norm(x) / norm(x, p) have no out= form.
  outApplies: (s) => s.args.length >= 2 || 'dim' in s.kwargs,
  errorInputs: reductionErrors([
    ...dimRangeErrors(true, [2]),
    duplicateDims([2]),
    {
      shape: [2, 3],
      dtype: 'int64',
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /input dtype should be either floating point or complex. Got Long instead/,
    },
  ]),
});

/** A float dtype wider than `d` for dtype= (float64 itself has none; complex keeps its own). */
const widerReal = (d: DType): DType | null =>
  d === 'float16' || d === 'bfloat16' || d === 'float32' ? 'float64' : null;

/**
 * torch.norm's Python forms (torch/functional.py), which aten's norm overloads do not take: p='fro' (the 2-norm
 * over at most one dim, sqrt(sum(x * x)) over two), dim=None with a number p (every dim), p=None, dtype=. Called
 * through the runtime's Python definition (`_functional_norm`, what `torch.norm` calls); 'nuc' needs an SVD and is
 * not implemented.
 */
const normFro = opInfo({
  name: 'norm.fro',
  op: '_functional_norm',
  family: 'reduction',
  dtypes: FLOAT_COMPLEX,
  sampleInputs: (ctx) => {
    const make = maker(ctx);
    const x = make([3, 5]);
    const y = make([2, 3, 4]);
    const wider = widerReal(ctx.dtype);
    return [
      call(x, []),
      call(x, ['fro']),
      call(y, ['fro', [0, -1]], {}, 'two dims'),
      call(y, ['fro', [1, 2], true], {}, 'two dims'),
      call(y, ['fro', 1]),
      call(y, [], { p: 'fro', dim: [0, 1] }, 'two dims'),
      call(make([0, 4]), ['fro', [0, 1]], {}, 'two dims'),
      call(y, [2]),
      call(y, [null]),
      call(y, [3, null, true]),
      call(y, [1], { dim: 1 }),
      ...(wider ? [call(y, [], { p: 2, dim: 1, keepdim: true, dtype: wider })] : []),
    ];
  },
  ref: pythonNormRef,
  resultDType: (s) => realOf(dtypeKw(s) ?? inputDType(s)),
  errorInputs: reductionErrors([
    {
      shape: [2, 3, 4],
      args: ['fro', [0, 1, 2]],
      code: 'E_INVALID_ARGUMENT',
      regex: /Expected at most 2 dimensions, but got 3 dimensions instead/,
    },
    {
      shape: [2, 3, 4],
      args: ['fro', [1, -2]],
      code: 'E_INVALID_ARGUMENT',
      regex: /Expected dims to be different, got \[1, -2\] instead/,
    },
    {
      shape: [2, 3],
      args: ['fro'],
      kwargs: { dtype: 'float64' },
      code: 'E_INVALID_ARGUMENT',
      regex: /dtype argument is not supported in frobenius norm/,
    },
    {
      shape: [2, 3],
      args: ['bad'],
      code: 'E_INVALID_ARGUMENT',
      regex: /only valid string values are 'fro' and 'nuc', found bad/,
    },
    {
      shape: [2, 3, 4],
      args: ['fro', [0, -3]],
      code: 'E_INVALID_ARGUMENT',
      regex: /Expected dims to be different, got \[0, -3\] instead/,
    },
    // Over one dim 'fro' is aten's norm, whose dtype check speaks (not the two-dim path's).
    {
      shape: [2, 3],
      dtype: 'int64',
      args: ['fro', 1],
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /input dtype should be either floating point or complex. Got Long instead/,
    },
    // PyTorch 1.13 refuses the nuclear norm of a 3-d input without dims too (it wants 2 dims); the runtime has none.
    {
      shape: [2, 3, 4],
      args: ['nuc'],
      code: 'E_NOT_IMPLEMENTED',
      regex: /the nuclear norm needs a singular value decomposition/,
    },
  ]),
});

export const NORM_OPINFOS: readonly OpInfo[] = [vectorNorm, norm, normFro];
