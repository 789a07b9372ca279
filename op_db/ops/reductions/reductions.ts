/**
 * OpInfos for reductions: sum, mean, prod, all, any, amax, amin, max, min, argmax, argmin here; var, std,
 * logsumexp, scans and softmax in reductions/stats.ts, the norms in reductions/norms.ts (REDUCTION_OPINFOS
 * gathers them all). One OpInfo per op name: its samples cover the full overload (sum(x)) and the dim
 * overloads (sum.dim_IntList).
 *
 * Tolerances: the runtime folds floats in float64 and rounds once (PyTorch accumulates float16/bfloat16 in
 * float32), so PyTorch's default tolerances hold against the float64 references and no op overrides them.
 */
import { complex, DTYPE_GROUPS, DTYPE_INFO, type DType, Tensor, tensor } from '../../../src/runtime/index.ts';
import {
  accumulateDTypeArg,
  call,
  dimRangeErrors,
  duplicateDims,
  emptyReductionErrors,
  int64Overflow,
  notImplemented,
  otherFloat,
  outerDimColumns,
  reductionErrors,
  reductionSamples,
} from '../../families/reductions.ts';
import { opInfo } from '../../info.ts';
import type { Maker } from '../../make.ts';
import { elementwise } from '../../refs/pointwise.ts';
import {
  accumulateDType,
  argRef,
  extremeRef,
  logicalRef,
  maxMinRef,
  meanRef,
  prodRef,
  sumRef,
} from '../../refs/reductions.ts';
import type { RefTensor } from '../../refs/tensor.ts';
import type { OpInfo, SampleContext, SampleInput } from '../../types.ts';
import { STATS_OPINFOS } from './stats.ts';

const ALL = DTYPE_GROUPS.all;
const NO_COMPLEX = DTYPE_GROUPS.allButComplex;
const REAL_NUMERIC = DTYPE_GROUPS.realNumeric;
const FLOAT_COMPLEX = DTYPE_GROUPS.floatingAndComplex;
// PyTorch 1.13's CPU prod kernel has no float16/bfloat16 ("prod_cpu" not implemented).
const PROD = ALL.filter((d) => d !== 'float16' && d !== 'bfloat16');

const inputDType = (s: SampleInput) => (s.input as { dtype: DType }).dtype;
const dtypeKw = (s: SampleInput) => (s.kwargs.dtype as DType | undefined) ?? null;

const sum = opInfo({
  name: 'sum',
  family: 'reduction',
  dtypes: ALL,
  sampleInputs: reductionSamples({
    dtypes: ALL,
    dims: 'list',
    full: true,
    allDims: 'none',
    dtypeArg: accumulateDTypeArg,
    extra: (make, ctx) => [...int64Overflow('list')(make, ctx), ...outerDimColumns(make, ctx)],
  }),
  ref: sumRef,
  resultDType: (s) => accumulateDType(inputDType(s), dtypeKw(s)),
  errorInputs: reductionErrors([
    ...dimRangeErrors(true),
    duplicateDims(),
    {
      shape: [2, 3],
      args: [1],
      kwargs: { dtype: 'float64' },
      out: { shape: [2], dtype: 'float32' },
      code: 'E_RESULT_TYPE',
      regex: /Expected out tensor to have dtype double, but got float instead/,
    },
  ]),
});

const mean = opInfo({
  name: 'mean',
  family: 'reduction',
  dtypes: FLOAT_COMPLEX,
  sampleInputs: reductionSamples({
    dtypes: FLOAT_COMPLEX,
    dims: 'list',
    full: true,
    allDims: 'empty',
    dtypeArg: otherFloat,
    extra: outerDimColumns,
  }),
  ref: meanRef,
  resultDType: (s) => dtypeKw(s) ?? inputDType(s),
  // mean.out needs dim (PyTorch 1.13 gives it no default): mean(x, *, dtype) has no out= form.
  outApplies: (s) => s.args.length > 0 || 'dim' in s.kwargs,

  errorInputs: reductionErrors([
    ...dimRangeErrors(true),
    duplicateDims(),
    {
      shape: [2, 3],
      dtype: 'int64',
      code: 'E_DTYPE_UNSUPPORTED',
      regex:
        /could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long/,
    },
    {
      shape: [2, 3],
      args: [0],
      kwargs: { dtype: 'int32' },
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /Optional dtype must be either a floating point or complex dtype. Got: Int/,
    },
    {
      shape: [2, 3],
      args: [1],
      out: { shape: [2], dtype: 'int64' },
      code: 'E_RESULT_TYPE',
      regex: /result type Float can't be cast to the desired output type Long/,
    },
  ]),
});

const prod = opInfo({
  name: 'prod',
  family: 'reduction',
  dtypes: PROD,
  sampleInputs: reductionSamples({
    dtypes: PROD,
    dims: 'int',
    full: true,
    dtypeArg: accumulateDTypeArg,
    extra: int64Overflow('int'),
  }),
  ref: prodRef,
  resultDType: (s) => accumulateDType(inputDType(s), dtypeKw(s)),
  errorInputs: reductionErrors([
    ...dimRangeErrors(false),
    {
      shape: [2, 3],
      dtype: 'bfloat16',
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /"prod_(out_)?cpu" not implemented for 'BFloat16'/,
    },
    {
      shape: [2, 3],
      args: [0],
      kwargs: { dtype: 'float16' },
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /"prod_(out_)?cpu" not implemented for 'Half'/,
    },
  ]),
});

/**
 * Complex elements with a zero real part: the runtime deliberately reads both parts (bool(1j) is True), where
 * PyTorch 1.13's CPU all/any cast through the real part only; see logicalRef.
 */
const pureImaginary = (_make: Maker, ctx: SampleContext): SampleInput[] => {
  if (DTYPE_INFO[ctx.dtype].kind !== 'complex') return [];
  const parts = [0, 1, 0, 0, 0, -2, 3, 0, 0, 0, 0, 0];
  const values = Array.from({ length: 6 }, (_, i) => complex(parts[2 * i], parts[2 * i + 1]));
  const z = tensor(values, { dtype: ctx.dtype }).reshape([3, 2]).to(ctx.device);
  return [call(z), call(z, [1]), call(z, [0], {}, 'pure imaginary')];
};

function logical(kind: 'all' | 'any'): OpInfo {
  return opInfo({
    name: kind,
    family: 'reduction',
    dtypes: ALL,
    sampleInputs: reductionSamples({ dtypes: ALL, dims: 'int', full: true, extra: pureImaginary }),
    ref: logicalRef(kind),
    resultDType: (s) => (inputDType(s) === 'uint8' ? 'uint8' : 'bool'),
    errorInputs: reductionErrors([
      ...dimRangeErrors(false),
      {
        shape: [2, 3],
        args: [1],
        out: { shape: [2], dtype: 'float32' },
        code: 'E_RESULT_TYPE',
        regex: new RegExp(`${kind} only supports bool tensor for result, got: Float`),
      },
    ]),
  });
}

function amaxAmin(which: 'max' | 'min'): OpInfo {
  const name = `a${which}`;
  return opInfo({
    name,
    family: 'reduction',
    dtypes: NO_COMPLEX,
    sampleInputs: reductionSamples({
      dtypes: NO_COMPLEX,
      dims: 'list',
      full: true,
      identity: false,
      allDims: 'empty',
      extra: outerDimColumns,
    }),
    ref: extremeRef(which),
    resultDType: inputDType,
    flags: { exactRounding: true },
    errorInputs: reductionErrors([
      ...dimRangeErrors(true),
      duplicateDims(),
      ...emptyReductionErrors(true, true),
      {
        shape: [2, 3],
        dtype: 'complex64',
        code: 'E_DTYPE_UNSUPPORTED',
        regex: notImplemented(`${which}_values_cpu`, 'ComplexFloat'),
      },
      {
        shape: [2, 3],
        args: [0],
        out: { shape: [3], dtype: 'float64' },
        code: 'E_RESULT_TYPE',
        regex:
          /Expected the dtype for input and out to match, but got Float for input's dtype and Double for out's dtype/,
      },
    ]),
  });
}

/** max / min: max(x) and max(x, dim, keepdim) -> (values, indices). No out= overload is registered. */
/** The binary max(a, b) / min(a, b): elementwise, NaN propagating (PyTorch's maximum / minimum). */
const binaryExtreme = (which: 'max' | 'min') => (a: number, b: number) =>
  Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : which === 'max' ? Math.max(a, b) : Math.min(a, b);
const isRef = (x: unknown): x is RefTensor => typeof x === 'object' && x !== null && 're' in x;

/**
 * Lines of 80 whose largest and smallest values repeat (1 + (7i + 3) mod 10, so neither extreme is a zero,
 * which the SIMD extreme leaves to the JS scan, nor first at index 0): the first index must win, also
 * where the float32 kernel finds the extreme with SIMD and then looks up its first occurrence.
 */
function repeatedExtreme(make: Maker, _ctx: SampleContext): SampleInput[] {
  const lines = () =>
    make.values(
      Array.from({ length: 160 }, (_, i) => ((i * 7 + 3) % 10) + 1),
      [2, 80],
    );
  return [
    call(lines(), [1], {}, 'repeated extreme along dim 1'),
    call(lines(), [], {}, 'repeated extreme, flattened'),
  ];
}

function maxMin(which: 'max' | 'min'): OpInfo {
  const reduce = maxMinRef(which);
  return opInfo({
    name: which,
    family: 'reduction',
    dtypes: NO_COMPLEX,
    sampleInputs: reductionSamples({
      dtypes: NO_COMPLEX,
      dims: 'int',
      full: true,
      identity: false,
      // max.other / min.other: torch.max(a, b).
      // (No repeated-extreme sample here: at a tie the indices output jumps under gradcheck's perturbations;
      // argmax / argmin's carry it, and max.dim shares their first-index search.)
      extra: (make: Maker) => [
        call(make([3, 4]), [make([3, 4])], {}, 'other'),
        call(make([2, 3]), [make([3])], {}, 'broadcast other'),
      ],
    }),
    ref: (s) =>
      isRef(s.args[0]) ? elementwise([s.input, s.args[0]], binaryExtreme(which), s.input.dtype) : reduce(s),
    // Only torch.max(a, b) has an out= form (max.out); the reductions' is not implemented.
    outApplies: (s) => s.args[0] instanceof Tensor,
    resultDType: inputDType,
    flags: { exactRounding: true },
    errorInputs: reductionErrors([
      ...dimRangeErrors(false),
      ...emptyReductionErrors(true, false),
      {
        shape: [2, 3],
        dtype: 'complex64',
        args: [1],
        code: 'E_DTYPE_UNSUPPORTED',
        regex: /does not support complex input/,
      },
      {
        shape: [2, 3],
        dtype: 'complex64',
        code: 'E_DTYPE_UNSUPPORTED',
        regex: notImplemented(`${which}_all`, 'ComplexFloat'),
      },
    ]),
  });
}

function argMaxMin(which: 'max' | 'min'): OpInfo {
  const name = `arg${which}`;
  return opInfo({
    name,
    family: 'reduction',
    dtypes: REAL_NUMERIC,
    sampleInputs: reductionSamples({
      dtypes: REAL_NUMERIC,
      dims: 'int',
      full: true,
      identity: false,
      allDims: 'none',
      extra: repeatedExtreme,
    }),
    ref: argRef(which),
    resultDType: () => 'int64',
    errorInputs: reductionErrors([
      ...dimRangeErrors(false),
      ...emptyReductionErrors(true, false),
      {
        shape: [2, 3],
        dtype: 'bool',
        args: [1],
        code: 'E_DTYPE_UNSUPPORTED',
        regex: notImplemented(`${name}_cpu`, 'Bool'),
      },
      {
        shape: [2, 3],
        args: [0],
        out: { shape: [3], dtype: 'float32' },
        code: 'E_RESULT_TYPE',
        regex: /Expected out tensor to have dtype long int, but got float instead/,
      },
    ]),
  });
}

export const REDUCTION_OPINFOS: readonly OpInfo[] = [
  sum,
  mean,
  prod,
  logical('all'),
  logical('any'),
  amaxAmin('max'),
  amaxAmin('min'),
  maxMin('max'),
  maxMin('min'),
  argMaxMin('max'),
  argMaxMin('min'),
  ...STATS_OPINFOS,
];
