/**
 * OpInfos for var, std, logsumexp, cumsum, cumprod, softmax and log_softmax, plus the norms of
 * reductions/norms.ts (part of REDUCTION_OPINFOS, see reductions.ts).
 */
import { DTYPE_GROUPS, type DType, type Tensor } from '../../../src/runtime/index.ts';
import {
  accumulateDTypeArg,
  call,
  type DimCase,
  defaultCall,
  dimRangeErrors,
  duplicateDims,
  int64Overflow,
  largeLogits,
  notImplemented,
  otherFloat,
  reductionErrors,
  reductionSamples,
} from '../../families/reductions.ts';
import { opInfo } from '../../info.ts';
import type { Maker } from '../../make.ts';
import { accumulateDType, logsumexpRef, momentRef, scanRef, softmaxRef } from '../../refs/reductions.ts';
import type { OpInfo, SampleInput } from '../../types.ts';
import { NORM_OPINFOS } from './norms.ts';

const ALL = DTYPE_GROUPS.all;
const FLOAT_COMPLEX = DTYPE_GROUPS.floatingAndComplex;
// PyTorch 1.13 CPU: logsumexp goes through exp, which has no float16 kernel; complex is refused.
const LOGSUMEXP = DTYPE_GROUPS.allButComplex.filter((d) => d !== 'float16');
// cumsum/cumprod: no float16 kernel ("cumsum_out_cpu"); bool/int inputs scan in int64.
const SCAN = ALL.filter((d) => d !== 'float16');
// softmax/log_softmax kernels exist for float32, float64 and bfloat16 only.
const SOFTMAX = DTYPE_GROUPS.floating.filter((d) => d !== 'float16');

const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;
const dtypeKw = (s: SampleInput) => (s.kwargs.dtype as DType | undefined) ?? null;
const realOf = (d: DType): DType => (d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d);
const isIntLike = (d: DType) => !DTYPE_GROUPS.floatingAndComplex.includes(d);

/** var / std: var(x), var(x, unbiased), var(x, dim, unbiased, keepdim), var(x, dim, *, correction, keepdim). */
function moment(name: 'var' | 'std'): OpInfo {
  const extra = (make: Maker): SampleInput[] => {
    const x = make([3, 5]);
    const y = make([2, 3, 4]);
    return [
      call(x, [false]),
      call(x, [], { unbiased: false }),
      call(y, [[0, -1], false, true]),
      call(y, [1], { correction: 0 }),
      call(y, [], { dim: [1], correction: 2, keepdim: true }),
      call(x, [null], { correction: 0 }),
      call(x, [null], { correction: 5 }, 'correction > 1'),
      call(make([2, 3]), [0], { correction: 2 }, 'N - correction = 0 -> inf'),
      // All dims: 2 / 0 = inf, so the gradient is +-inf, NaN only where an element equals the mean; below 0 the
      // variance is inf (N - correction clamped at 0) and the gradient finite, 2 / (N - correction) * (x - mean).
      call(make([2, 3]), [null], { correction: 6 }, 'all dims, N - correction = 0 -> inf gradient'),
      call(make([2, 3]), [null], { correction: 8 }, 'all dims, N - correction < 0 -> finite gradient'),
    ];
  };
  return opInfo({
    name,
    family: 'reduction',
    dtypes: FLOAT_COMPLEX,
    sampleInputs: reductionSamples({
      dtypes: FLOAT_COMPLEX,
      dims: 'list',
      full: true,
      allDims: 'none',
      // var.dim's keepdim follows `unbiased`: (dim, unbiased, keepdim).
      call: (c: DimCase) =>
        c.keepdim !== undefined && !c.kw ? [[c.dim, true, c.keepdim], {}] : defaultCall(c),
      extra,
    }),
    ref: momentRef(name === 'std'),
    resultDType: (s) => realOf(inputDType(s)),
    // var.out and var.correction_out need dim (PyTorch 1.13 gives it no default): var(x, out=o) does not bind.
    outApplies: (s) => (s.args.length > 0 && typeof s.args[0] !== 'boolean') || 'dim' in s.kwargs,
    errorInputs: reductionErrors([
      ...dimRangeErrors(true),
      duplicateDims(),
      {
        shape: [2, 3],
        dtype: 'int64',
        args: [0],
        code: 'E_DTYPE_UNSUPPORTED',
        regex: /std and var only support floating point and complex dtypes/,
      },
      {
        // PyTorch 1.13's var.correction has no default for `dim`: var(x, correction=0) does not parse.
        shape: [2, 3],
        kwargs: { correction: 0 },
        code: 'E_NO_OVERLOAD',
        regex: /missing required argument 'dim'/,
      },
    ]),
  });
}

const logsumexp = opInfo({
  name: 'logsumexp',
  family: 'reduction',
  dtypes: LOGSUMEXP,
  sampleInputs: reductionSamples({
    dtypes: LOGSUMEXP,
    dims: 'list',
    allDims: 'empty',
    extra: largeLogits('list'),
  }),
  ref: logsumexpRef,
  resultDType: (s) => (isIntLike(inputDType(s)) ? 'float32' : inputDType(s)),
  errorInputs: reductionErrors([
    ...dimRangeErrors(true),
    duplicateDims(),
    {
      shape: [2, 3],
      dtype: 'complex64',
      args: [1],
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /Expected floating point type for result tensor, but got: ComplexFloat/,
    },
    {
      shape: [2, 3],
      dtype: 'float16',
      args: [1],
      code: 'E_DTYPE_UNSUPPORTED',
      regex: /not implemented for 'Half'/,
    },
  ]),
});

function scan(kind: 'cumsum' | 'cumprod'): OpInfo {
  return opInfo({
    name: kind,
    family: 'reduction',
    dtypes: SCAN,
    sampleInputs: reductionSamples({
      dtypes: SCAN,
      dims: 'int',
      keepdim: false,
      dtypeArg: accumulateDTypeArg,
      // dtype= naming the input's own dtype: the one dtype the in-place cumsum_ accepts.
      extra: (make, ctx) => [
        ...int64Overflow('scan')(make, ctx),
        // (not bool: "cumsum_out_cpu" is not implemented for Bool, whatever the input)
        ...(ctx.dtype === 'bool' ? [] : [call(make([3, 4]), [1], { dtype: ctx.dtype }, 'own dtype')]),
        // ... except a 0-dim input, which PyTorch copies before it dispatches on the dtype.
        ...(ctx.requiresGrad ? [] : [call(make([]), [0], { dtype: 'bool' }, '0-dim, dtype=bool (a copy)')]),
        // Zeros (one per row, then two in a row): cumprod's backward divides by x only away from zeros.
        ...(kind === 'cumprod' && ctx.dtype === 'float64'
          ? [call(make.values([0.5, 0, 2, 1.5, 0, 1.5, 0, 2], [2, 4]), [1], {}, 'zeros')]
          : []),
      ],
    }),
    ref: scanRef(kind === 'cumsum' ? 'sum' : 'prod'),
    resultDType: (s) => accumulateDType(inputDType(s), dtypeKw(s)),
    // x.cumsum_(dim, dtype=d) with d other than x's dtype is a "Bad in-place call" in PyTorch.
    inplaceApplies: (s) => s.kwargs.dtype === undefined || s.kwargs.dtype === inputDType(s),
    errorInputs: reductionErrors([
      ...dimRangeErrors(false),
      {
        shape: [2, 3],
        dtype: 'float16',
        args: [1],
        code: 'E_DTYPE_UNSUPPORTED',
        regex: notImplemented(`${kind}_out_cpu`, 'Half'),
      },
      {
        shape: [2, 3],
        args: [0],
        kwargs: { dtype: 'bool' },
        code: 'E_DTYPE_UNSUPPORTED',
        regex: notImplemented(`${kind}_out_cpu`, 'Bool'),
      },
      {
        shape: [2, 3],
        args: [0],
        kwargs: { dtype: 'float64' },
        out: { shape: [2, 3], dtype: 'float32' },
        code: 'E_RESULT_TYPE',
        regex: /Expected out tensor to have dtype double, but got float instead/,
      },
    ]),
  });
}

function softmax(kind: 'softmax' | 'log_softmax'): OpInfo {
  return opInfo({
    name: kind,
    family: 'reduction',
    aliases: [`nn.functional.${kind}`],
    dtypes: SOFTMAX,
    sampleInputs: reductionSamples({
      dtypes: SOFTMAX,
      dims: 'int',
      keepdim: false,
      dtypeArg: otherFloat,
      extra: largeLogits('int'),
    }),
    ref: softmaxRef(kind === 'log_softmax'),
    resultDType: (s) => dtypeKw(s) ?? inputDType(s),
    // The last-dim log_softmax kernel keeps a bfloat16 line's sum of exps and its log in bfloat16, as PyTorch
    // 1.13's does: 0 where exact math gives -3.7e-3 (measured on the full tier's samples). bfloat16 outputs round
    // where PyTorch's kernels do (reductions/softmax.ts), so the golden oracle compares them bit for bit.
    ...(kind === 'log_softmax' ? { tolerances: { bfloat16: { rtol: 1.6e-2, atol: 4e-3 } } } : {}),
    goldenExact: ['bfloat16'],
    errorInputs: reductionErrors([
      ...dimRangeErrors(false),
      {
        shape: [2, 3],
        dtype: 'int64',
        args: [0],
        code: 'E_DTYPE_UNSUPPORTED',
        regex: /not implemented for 'Long'/,
      },
      {
        shape: [2, 3],
        dtype: 'int64',
        args: [-1],
        code: 'E_DTYPE_UNSUPPORTED',
        regex: notImplemented(`${kind}_lastdim_kernel_impl`, 'Long'),
      },
      {
        shape: [2, 3],
        dtype: 'float16',
        args: [0],
        code: 'E_DTYPE_UNSUPPORTED',
        regex: /not implemented for 'Half'/,
      },
      {
        shape: [2, 3],
        args: [0],
        out: { shape: [2, 3], dtype: 'float64' },
        code: 'E_RESULT_TYPE',
        regex: /Expected out tensor to have dtype float, but got double instead/,
      },
    ]),
  });
}

export const STATS_OPINFOS: readonly OpInfo[] = [
  moment('var'),
  moment('std'),
  logsumexp,
  ...NORM_OPINFOS,
  scan('cumsum'),
  scan('cumprod'),
  softmax('softmax'),
  softmax('log_softmax'),
];
