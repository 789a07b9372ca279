/**
 * OpInfos for the ternary selections: where (condition, self, other) and clamp (Scalar? or Tensor? bounds).
 * Both are pointwise ('ternary' family): the harness casts their tensor operands to the result dtype for the
 * reference, as the kernels compute in it.
 */
import {
  complex,
  DTYPE_GROUPS,
  DTYPE_INFO,
  type DType,
  float,
  type Tensor,
} from '../../../../src/runtime/index.ts';
import { scalarKind } from '../../../families/pointwise.ts';
import { claims, errorCase, FOUR_D, f32, gen, pyScalar, sample } from '../../../families/shape.ts';
import { opInfo } from '../../../info.ts';
import { SPECIAL_FLOATS } from '../../../make.ts';
import { tableResultType } from '../../../refs/promotion.ts';
import * as R from '../../../refs/shape.ts';
import type { OpInfo, SampleContext, SampleInput } from '../../../types.ts';

const _ALL = DTYPE_GROUPS.all;

// ------------------------------------------------------------------------------------------------- clamp

/** PyTorch 1.13 CPU: clamp_scalar_cpu / clamp_min_cpu / clamp_max_scalar_cpu / clamp_cpu lack bool and half. */
const CLAMP_CPU = DTYPE_GROUPS.realNumeric.filter((d) => d !== 'float16');

function clampSamples(ctx: SampleContext): SampleInput[] {
  const { make } = gen(ctx);
  const d = ctx.dtype;
  const kind = DTYPE_INFO[d].kind;
  const lo = pyScalar(d, -2.5);
  const hi = pyScalar(d, 3.5);
  const out = [
    sample(make([3, 4]), [lo, hi], {}, { name: 'Scalar min and max' }),
    sample(make([3, 4]), [hi, lo], {}, { name: 'min > max' }),
    sample(make([3, 4]), [], { min: lo }, { name: 'Scalar min only' }),
    sample(make([3, 4]), [], { max: hi }, { name: 'Scalar max only' }),
    sample(make([]), [lo, hi], {}, { name: '0-dim' }),
    sample(make([0, 4]), [lo, hi], {}, { name: 'zero-size' }),
    sample(make(FOUR_D), [lo, hi], {}, { name: '4-D' }),
    sample(make([3, 4]), [make([4], { high: 0 }), make([3, 1], { low: 0 })], {}, { name: 'Tensor bounds' }),
    sample(make([]), [make([]), make([])], {}, { name: '0-dim Tensor bounds' }),
    // self broadcast up to the bounds' shape: its gradient sums over the rows it was broadcast along.
    sample(
      make([4]),
      [make([3, 4], { high: 0 }), make([3, 1], { low: 0 })],
      {},
      { name: 'self broadcast by Tensor bounds' },
    ),
  ];
  // Partially supported: bool and float16 run min-only / max-only Tensor bounds (the maximum / minimum kernels)
  // but no other form, so these samples only exist for the claimed dtypes (PyTorch's "partially supported").
  if (claims(ctx, CLAMP_CPU)) {
    out.push(sample(make([3, 4]), [], { min: make([3, 1]) }, { name: 'Tensor min only' }));
    out.push(sample(make([2, 3]), [], { min: null, max: make([3]) }, { name: 'Tensor max only' }));
  }
  if (kind === 'int') out.push(sample(make([3, 4]), [float(-2.5), float(3.5)], {}, { name: 'float bounds' }));
  // Int bounds at the dtype's exact range (c10's checked conversion accepts them; uint8's 0 must not wrap).
  if (kind === 'int' && d !== 'int64') {
    const bits = DTYPE_INFO[d].itemsize * 8;
    const range = d === 'uint8' ? [0, 255] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
    out.push(sample(make([4]), range, {}, { name: 'bounds at the dtype range' }));
    // A negative int bound wraps into uint8 down to -255 (checked_convert accepts it): min 1.
    if (d === 'uint8') out.push(sample(make([4]), [-255, 255], {}, { name: 'uint8 min -255 (wraps to 1)' }));
  }
  // The largest finite float as bounds (accepted; one more overflows the conversion).
  const edge = { bfloat16: 3.3895313892515355e38, float32: 3.4028234663852886e38 }[d as 'float32'];
  if (edge !== undefined)
    out.push(
      sample(make([4]), [float(-edge), float(edge)], {}, { name: 'bounds at the largest finite float' }),
    );
  if (kind === 'float') {
    const v = make.values(SPECIAL_FLOATS);
    const n = SPECIAL_FLOATS.length;
    out.push(sample(v, [float(-1), float(1)], {}, { name: 'special values' }));
    out.push(sample(v, [], { min: float(Number.NaN) }, { name: 'NaN min alone is ignored' }));
    out.push(sample(v, [float(Number.NaN), float(1)], {}, { name: 'NaN bound with both fills NaN' }));
    out.push(
      sample(
        make([n]),
        [v, make.values([...SPECIAL_FLOATS].reverse())],
        {},
        { name: 'special Tensor bounds' },
      ),
    );
  }
  return out;
}

/** clamp: a floating self keeps its dtype with Scalar bounds; otherwise self and the bounds promote. */
function clampResultType(s: SampleInput): DType {
  const x = s.input as Tensor;
  const bounds = [s.args[0] ?? s.kwargs.min, s.args[1] ?? s.kwargs.max].filter(
    (b) => b !== undefined && b !== null,
  );
  const isT = (b: unknown) => typeof b === 'object' && b !== null && 'ndim' in b;
  if (bounds.every(isT)) {
    const ts = [x, ...(bounds as Tensor[])];
    return ts
      .map((t) => ({ dtype: t.dtype, dim: t.ndim }))
      .reduce((a, b) => ({ dtype: tableResultType(a, b), dim: Math.max(a.dim, b.dim) })).dtype;
  }
  if (DTYPE_INFO[x.dtype].kind === 'float') return x.dtype;
  return bounds.reduce<DType>(
    (acc, b) => tableResultType({ dtype: acc, dim: x.ndim }, { scalar: scalarKind(b) }),
    x.dtype,
  );
}

const clamp = opInfo({
  name: 'clamp',
  family: 'ternary',
  dtypes: CLAMP_CPU,
  // The meta functions check only complex; the missing bool / half kernels are a CPU matter.
  dtypesIf: { meta: DTYPE_GROUPS.allButComplex },
  sampleInputs: clampSamples,
  errorInputs: (ctx) => {
    const f = f32(ctx);
    const { of } = gen(ctx);
    return [
      errorCase(f([3]), [], {}, 'E_INVALID_ARGUMENT', /At least one of 'min' or 'max' must not be None/),
      errorCase(
        of('complex64')([3]),
        [float(0)],
        {},
        'E_DTYPE_UNSUPPORTED',
        /clamp is not supported for complex types/,
      ),
      errorCase(
        f([2]).to('int64'),
        [2],
        { out: f([0]).double() },
        'E_RESULT_TYPE',
        /Found dtype Double but expected Long/,
      ),
      errorCase(
        f([2]).to('int8'),
        [300],
        {},
        'E_INVALID_ARGUMENT',
        /value cannot be converted to type int8_t without overflow/,
      ),
      errorCase(f([3]), [f([4]), f([3])], {}, 'E_SHAPE_MISMATCH', /The size of tensor a \(3\) must match/),
      // An integral self with a complex Python bound: the promoted compute dtype is complex.
      errorCase(
        of('int32')([3]),
        [complex(0, 1)],
        {},
        'E_DTYPE_UNSUPPORTED',
        /clamp is not supported for complex types/,
        'int self, complex Scalar min',
      ),
      errorCase(
        of('complex64')([3]),
        [of('complex64')([3])],
        {},
        'E_DTYPE_UNSUPPORTED',
        /clamp is not supported for complex types/,
        'complex self, tensor min',
      ),
      // Both tensor bounds run clamp_cpu, which has no bool (nor Half) kernel.
      errorCase(
        of('bool')([3]),
        [of('bool')([3]), of('bool')([3])],
        {},
        'E_DTYPE_UNSUPPORTED',
        /"clamp_cpu" not implemented for 'Bool'/,
        'bool self and tensor bounds',
      ),
      // One complex tensor bound on a real self: the maximum / minimum kernel, which has no complex (into a
      // complex out=: a real self or out, as in-place, fails the result type cast first, in PyTorch too).
      errorCase(
        f([3]),
        [of('complex64')([3])],
        { out: of('complex64')([3]) },
        'E_DTYPE_UNSUPPORTED',
        /"maximum_cpu" not implemented for 'ComplexFloat'/,
        'float self, complex tensor min',
      ),
    ];
  },
  ref: R.clampRef,
  resultDType: clampResultType,
  flags: { exactRounding: true },
});

/**
 * The clamp.Tensor overload called by its aten name (torch.ops.aten.clamp.Tensor): Python's clamp with no bound
 * binds the Scalar overload, so only a direct call reaches this overload's own None / None check.
 */
const clampTensor = opInfo({
  name: 'clamp.Tensor',
  family: 'ternary',
  dtypes: CLAMP_CPU,
  dtypesIf: { meta: DTYPE_GROUPS.allButComplex },
  sampleInputs: (ctx) => {
    const { make } = gen(ctx);
    // Both bounds: bool and float16 run only one-bound Tensor forms (maximum / minimum), claimed by neither.
    return [
      sample(make([3, 4]), [make([4], { high: 0 }), make([3, 1], { low: 0 })], {}, { name: 'Tensor bounds' }),
    ];
  },
  errorInputs: (ctx) => [
    errorCase(
      f32(ctx)([3]),
      [null, null],
      {},
      'E_INVALID_ARGUMENT',
      /At least one of 'min' or 'max' must not be None/,
    ),
  ],
  ref: R.clampRef,
  resultDType: clampResultType,
  flags: { exactRounding: true },
});

export const CLAMP_OPINFOS: readonly OpInfo[] = [clamp, clampTensor];
