/**
 * OpInfos for the ternary selections: where (condition, self, other) and clamp (Scalar? or Tensor? bounds).
 * Both are pointwise ('ternary' family): the harness casts their tensor operands to the result dtype for the
 * reference, as the kernels compute in it.
 */
import { DTYPE_GROUPS, DTYPE_INFO, type DType, type Tensor } from '../../../../src/runtime/index.ts';
import { scalarKind } from '../../../families/pointwise.ts';
import { errorCase, FOUR_D, f32, gen, pyScalar, sample } from '../../../families/shape.ts';
import { opInfo } from '../../../info.ts';
import { SPECIAL_FLOATS } from '../../../make.ts';
import { tableResultType } from '../../../refs/promotion.ts';
import * as R from '../../../refs/shape.ts';
import type { OpInfo, SampleContext, SampleInput } from '../../../types.ts';

const ALL = DTYPE_GROUPS.all;

// ------------------------------------------------------------------------------------------------- where

function whereSamples(ctx: SampleContext): SampleInput[] {
  const { make, bools, of } = gen(ctx);
  const out = [
    sample(bools([3, 4]), [make([3, 4]), make([3, 4])], {}, { name: 'same shape' }),
    sample(bools([2, 1, 4]), [make([3, 1]), make([])], {}, { name: 'broadcast all three' }),
    sample(bools([4]), [make([3, 4]), make([3, 1])], {}, { name: 'broadcast condition' }),
    sample(bools([]), [make([]), make([])], {}, { name: '0-dim' }),
    sample(bools([0, 4]), [make([0, 4]), make([4])], {}, { name: 'zero-size' }),
    sample(bools(FOUR_D), [make(FOUR_D), make(FOUR_D)], {}, { name: '4-D' }),
    sample(bools([3, 4]), [make([3, 4]), of('int64')([4])], {}, { name: 'promotes with int64' }),
    sample(bools([3, 4]), [make([3, 4]), of('float64')([])], {}, { name: '0-dim float64 other' }),
    sample(bools([3, 4]), [make([3, 4]), pyScalar(ctx.dtype, 2.5)], {}, { name: 'Python scalar other' }),
    // where(condition, self: Number, other): a Python number either side, or both.
    sample(bools([3, 4]), [pyScalar(ctx.dtype, -1.5), make([3, 4])], {}, { name: 'Python scalar self' }),
    sample(
      bools([3, 4]),
      [pyScalar(ctx.dtype, 2.5), pyScalar(ctx.dtype, -1.5)],
      {},
      { name: 'two Python scalars' },
    ),
  ];
  if (DTYPE_INFO[ctx.dtype].kind === 'float') {
    const n = SPECIAL_FLOATS.length;
    const [a, b] = [make.values(SPECIAL_FLOATS), make.values([...SPECIAL_FLOATS].reverse())];
    out.push(sample(bools([n]), [a, b], {}, { name: 'special values' }));
  }
  return out;
}

/** where's result dtype: result_type(self, other) (the condition does not take part). */
function whereResultType(s: SampleInput): DType {
  const [x, y] = s.args;
  const isTensor = (v: unknown): v is Tensor => typeof v === 'object' && v !== null && 'ndim' in v;
  const operand = (v: unknown) => (isTensor(v) ? { dtype: v.dtype, dim: v.ndim } : { scalar: scalarKind(v) });
  if (isTensor(x)) return tableResultType({ dtype: x.dtype, dim: x.ndim }, operand(y));
  if (isTensor(y)) return tableResultType({ dtype: y.dtype, dim: y.ndim }, operand(x));
  // Two Python numbers: the default dtype of the higher kind (bool, int64, float32, complex64).
  const kinds = ['bool', 'int', 'float', 'complex'] as const;
  const kind = kinds[Math.max(kinds.indexOf(scalarKind(x)), kinds.indexOf(scalarKind(y)))];
  return ({ bool: 'bool', int: 'int64', float: 'float32', complex: 'complex64' } as const)[kind];
}

const where = opInfo({
  name: 'where',
  family: 'ternary',
  dtypes: ALL,
  sampleInputs: whereSamples,
  errorInputs: (ctx) => {
    const f = f32(ctx);
    const { bools } = gen(ctx);
    return [
      errorCase(
        f([3]),
        [f([3]), f([3])],
        {},
        'E_DTYPE_UNSUPPORTED',
        /where expected condition to be a boolean tensor, but got a tensor with dtype Float/,
      ),
      errorCase(
        bools([3]),
        [f([4]), f([3])],
        {},
        'E_SHAPE_MISMATCH',
        /The size of tensor a \(3\) must match the size of tensor b \(4\) at non-singleton dimension 0/,
      ),
    ];
  },
  ref: R.whereRef,
  // Tensor.where(condition, y) takes self as the *second* operand, so the oracle's method check (receiver = the
  // sample's input, here the condition) does not apply; tests/unit/where_clamp_indexing covers the method.
  untestedVariants: { method: 'Tensor.where(condition, y) takes self as the receiver, not the condition' },
  resultDType: whereResultType,
  flags: { exactRounding: true },
});

export const WHERE_OPINFO: OpInfo = where;
