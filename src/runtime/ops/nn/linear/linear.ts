/**
 * torch.nn.functional.linear and bilinear, written in differentiable runtime ops (autograd records the
 * decomposition). Both follow PyTorch 1.13's code paths, because the paths differ in their checks: linear of a 2-D
 * input (or a contiguous 3-D one) with a bias is addmm, whose bias must match the weight's dtype and expand to the
 * result; any other linear is matmul then an in-place add of the bias; bilinear is _trilinear over 2-D views.
 */
import {
  DimOutOfRangeError,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  ShapeMismatchError,
  Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, operatorTable } from '../../../dispatch/index.ts';
import { notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';

export const NN_LINEAR_API = {
  linear: 'function',
  bilinear: 'function',
} as const satisfies ApiDecl;

const torchName = (d: DType) => DTYPE_INFO[d].torchName;

/** addmm(bias, m1, m2) with beta = alpha = 1: addmm's meta checks, then the bias expanded to the product's shape. */
function addmm(bias: Tensor, m1: Tensor, m2: Tensor, op: string, out?: Tensor): Tensor {
  if (bias.dtype !== m2.dtype)
    throw new DTypeUnsupportedError('self and mat2 must have the same dtype', {
      op,
      arg: 'bias',
      got: bias.dtype,
      expected: m2.dtype,
    });
  if (m1.dtype !== m2.dtype)
    throw new DTypeUnsupportedError('mat1 and mat2 must have the same dtype', {
      op,
      arg: 'weight',
      got: m2.dtype,
      expected: m1.dtype,
    });
  for (const [m, name] of [
    [m1, 'mat1'],
    [m2, 'mat2'],
  ] as const)
    if (m.dim() !== 2)
      throw new ShapeMismatchError(`${name} must be a matrix, got ${m.dim()}-D tensor`, {
        op,
        arg: name === 'mat1' ? 'input' : 'weight',
        got: m.dim(),
        expected: 2,
      });
  const [n, k] = m1.shape;
  const [k2, m] = m2.shape;
  if (k !== k2)
    throw new ShapeMismatchError(`mat1 and mat2 shapes cannot be multiplied (${n}x${k} and ${k2}x${m})`, {
      op,
      arg: 'weight',
      got: [k2, m],
      expected: [k, m],
    });
  // Expanded before anything is written: a bias that does not fit leaves out= untouched.
  const b = t('expand', [bias, [n, m]]);
  if (!out) return t('add', [b, t('mm', [m1, m2])]);
  t('mm', [m1, m2], { out });
  return t('add_', [out, b]);
}

function linear(input: Tensor, weight: Tensor, bias: Tensor | null, out?: Tensor): Tensor {
  const wt = t('t', [weight]);
  if (bias && input.dim() === 2) return addmm(bias, input, wt, 'linear', out);
  // PyTorch folds a contiguous 3-D input into addmm's rows (the functional form only).
  if (bias && !out && input.dim() === 3 && input.isContiguous()) {
    const [b, s, k] = input.shape;
    const r = addmm(bias, t('view', [input, [b * s, k]]), wt, 'linear');
    return t('view', [r, [b, s, r.shape[1]]]);
  }
  // The bias is added in place, as PyTorch does: it broadcasts into the product's shape and dtype, never widens
  // them. Into out=, that add is tried on meta tensors first, so a bias that does not fit leaves out untouched.
  if (bias && out) {
    const shape = [...input.shape.slice(0, -1), ...weight.shape.slice(0, -1)];
    t('add_', [Tensor.empty(shape, out.dtype, 'meta'), Tensor.empty(bias.shape, bias.dtype, 'meta')]);
  }
  const r = t('matmul', [input, wt], out ? { out } : {});
  return bias ? t('add_', [r, bias]) : r;
}

/** `t.size(d)` for a dim that may not exist: PyTorch's IndexError, raised before any value is read. */
function size(x: Tensor, d: number, op: string, arg: string): number {
  if (x.dim() === 0)
    throw new DimOutOfRangeError(`Dimension specified as ${d} but tensor has no dimensions`, {
      op,
      arg,
      got: d,
      expected: 'a tensor with dimensions',
    });
  const n = x.dim();
  if (d < -n || d >= n)
    throw new DimOutOfRangeError(
      `Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${d})`,
      { op, arg, got: d, expected: `in [${-n}, ${n - 1}]` },
    );
  return x.shape[d < 0 ? d + n : d];
}

/** bilinear(x1, x2, W, b)[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]. */
function bilinear(x1: Tensor, x2: Tensor, weight: Tensor, bias: Tensor | null): Tensor {
  const op = 'bilinear';
  if (x1.dim() !== x2.dim())
    throw new ShapeMismatchError(
      `bilinear(): input dimensions do not match: got ${x1.dim()} and ${x2.dim()}`,
      { op, arg: 'input2', got: x2.dim(), expected: x1.dim() },
    );
  for (let i = 0; i < x1.dim() - 1; i++)
    if (x1.shape[i] !== x2.shape[i])
      throw new ShapeMismatchError(
        `bilinear(): input batch dimensions do not match at dim ${i}: got ${x1.shape[i]} and ${x2.shape[i]}`,
        { op, arg: 'input2', got: x2.shape[i], expected: x1.shape[i] },
      );
  const i1 = size(x1, -1, op, 'input1');
  const i2 = size(x2, -1, op, 'input2');
  const want1 = size(weight, 1, op, 'weight');
  if (i1 !== want1)
    throw new ShapeMismatchError(
      `bilinear(): input1 size does not match weight size: got ${i1} but expected ${want1}`,
      { op, arg: 'input1', got: i1, expected: want1 },
    );
  const want2 = size(weight, 2, op, 'weight');
  if (i2 !== want2)
    throw new ShapeMismatchError(
      `bilinear(): input2 size does not match weight size: got ${i2} but expected ${want2}`,
      { op, arg: 'input2', got: i2, expected: want2 },
    );
  const o = weight.shape[0];
  if (bias && size(bias, 0, op, 'bias') !== o)
    throw new ShapeMismatchError(
      `bilinear(): bias size does not match weight size: got ${bias.shape[0]} but expected ${o}`,
      { op, arg: 'bias', got: bias.shape[0], expected: o },
    );
  const a = t('reshape', [x1, [-1, i1]]);
  const b = t('reshape', [x2, [-1, i2]]);
  if (weight.dim() !== 3)
    throw new ShapeMismatchError('number of dimensions must match', {
      op,
      arg: 'weight',
      got: weight.dim(),
      expected: 3,
    });
  const rows = a.shape[0];
  // _trilinear multiplies (bmm) only when there is something to compute: only then must the operands' dtypes
  // agree and a kernel exist for them. An empty result is x1's dtype whatever the others are.
  const computes = rows > 0 && o > 0;
  if (computes) {
    for (const other of [weight, x2])
      if (other.dtype !== x1.dtype)
        throw new DTypeUnsupportedError(
          `expected scalar type ${torchName(x1.dtype)} but found ${torchName(other.dtype)}`,
          { op, arg: other === weight ? 'weight' : 'input2', got: other.dtype, expected: x1.dtype },
        );
    if (x1.dtype === 'bool' || x1.dtype === 'float16') throw notImplementedFor('bmm', x1.dtype, op);
  }
  const cast = (x: Tensor) => (x.dtype === x1.dtype ? x : t('to', [x, x1.dtype]));
  // The rows' outer products [rows, i1 * i2] times the flattened weight: a contiguous [rows, o].
  const outer = t('mul', [t('unsqueeze', [a, 2]), t('unsqueeze', [cast(b), 1])]);
  const w = t('t', [t('reshape', [cast(weight), [o, i1 * i2]])]);
  const r = t('reshape', [
    t('mm', [t('reshape', [outer, [rows, i1 * i2]]), w]),
    [...x1.shape.slice(0, -1), o],
  ]);
  return bias ? t('add', [r, bias]) : r;
}

export function registerNnLinear(): void {
  const decomposed = { family: 'linalg', decomposed: true } as const;
  defineOp({
    schema: 'linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor',
    tags: decomposed,
    composite: (a) => linear(a.input as Tensor, a.weight as Tensor, a.bias as Tensor | null),
  });
  defineOp({
    schema: 'linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out) -> Tensor(a!)',
    tags: { family: 'linalg' },
    composite: (a) => linear(a.input as Tensor, a.weight as Tensor, a.bias as Tensor | null, a.out as Tensor),
  });
  defineOp({
    schema: 'bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor',
    tags: decomposed,
    composite: (a) =>
      bilinear(a.input1 as Tensor, a.input2 as Tensor, a.weight as Tensor, a.bias as Tensor | null),
  });
  for (const n of ['linear', 'bilinear']) operatorTable.alias(`nn.functional.${n}`, n);
  operatorTable.declare(NN_LINEAR_API);
}
