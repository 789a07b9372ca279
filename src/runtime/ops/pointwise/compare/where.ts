/**
 * Ternary pointwise rows. `where` loads its condition as bool and promotes only self/other (PyTorch 1.13
 * type-promotes where). clamp is not a row: its Scalar? bounds take part in promotion and may be None, so it
 * is defined in clamp.ts.
 */
import { arg, gradOps } from '../../../autograd/index.ts';
import { DTYPE_INFO, DTypeUnsupportedError, type Tensor } from '../../../core/index.ts';
import type { PointwiseRow } from '../row.ts';

const { op, sumToSize } = gradOps;

const pick = <T>(c: number, a: T, b: T): T => (c ? a : b);

/** uint8 conditions are deprecated but still accepted by PyTorch 1.13; any other dtype is refused. */
function checkCondition(args: Readonly<Record<string, unknown>>): void {
  const c = args.condition as Tensor;
  if (c.dtype !== 'bool' && c.dtype !== 'uint8') {
    throw new DTypeUnsupportedError(
      `where expected condition to be a boolean tensor, but got a tensor with dtype ${DTYPE_INFO[c.dtype].torchName}`,
      { op: 'where', arg: 'condition', got: c.dtype, expected: 'bool' },
    );
  }
}

const WHERE = {
  name: 'where',
  schema: 'where.self(Tensor condition, Tensor self, Tensor other) -> Tensor',
  arity: 3,
  promotion: 'default',
  boolInputs: [0],
  wgsl: 'select(c, b, a)',
  inplace: false,
  outOverload: 'self_out',
  num: pick,
  big: pick,
  complex: (c: number, ar: number, ai: number, br: number, bi: number) => (c ? [ar, ai] : [br, bi]),
  kinds: ['bool', 'int', 'float', 'complex'],
  select: (args): PointwiseRow => {
    checkCondition(args);
    return WHERE;
  },
  derivative: {
    name: 'WhereBackward0',
    saves: ['condition'],
    formula: (c): (Tensor | null)[] => {
      const cond = arg(c, 'condition');
      const gs = op('where', cond, c.grad, 0);
      const go = op('where', cond, 0, c.grad);
      return [
        null,
        c.shapes.self ? sumToSize(gs, c.shapes.self) : null,
        c.shapes.other ? sumToSize(go, c.shapes.other) : null,
      ];
    },
  },
} as const satisfies PointwiseRow;

export const TERNARY_ROWS = [WHERE] as const satisfies readonly PointwiseRow[];
