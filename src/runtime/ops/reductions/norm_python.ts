/**
 * torch.norm and Tensor.norm as PyTorch 1.13 defines them: Python functions (torch/functional.py, torch/_tensor.py)
 * over aten's norm, with signatures of their own: `p` a number, None, 'fro' or 'nuc'; `dim` None, an int or a
 * list. `_functional_norm` / `_functional_tensor_norm` follow functional.py branch by branch: the Frobenius norm
 * over two dims is sqrt(sum(x * x)) (at::frobenius_norm), over fewer the 2-norm; a number p reduces every dim when
 * dim is None; dtype casts the input first (`_VF.norm(..., dtype=)`). The nuclear norm needs an SVD, which the
 * runtime does not have yet: 'nuc' is refused with a coded error.
 */
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  NotImplementedError,
  type Scalar,
  type Tensor,
} from '../../core/index.ts';
import { type BoundArgs, operatorTable } from '../../dispatch/index.ts';
import { callTensor as t } from '../op_helpers.ts';
import { defineOp } from '../structured.ts';

const OP = 'norm';
const allDims = (x: Tensor) => Array.from({ length: x.ndim }, (_, i) => i);

/** at::frobenius_norm(x, dim, keepdim): the 2-norm over at most one dim, else sqrt(sum(|x|^2)) over two. */
function frobenius(x: Tensor, dim: readonly number[], keepdim: boolean, out: Tensor | null): Tensor {
  const into = out ? { out } : {};
  if (dim.length > 2)
    throw new InvalidArgumentError(
      `Expected at most 2 dimensions, but got ${dim.length} dimensions instead.`,
      {
        op: OP,
        arg: 'dim',
        got: `[${dim.join(', ')}]`,
        expected: 'at most 2 dims',
      },
    );
  if (dim.length <= 1) return t('norm', [x, 2, [...dim], keepdim], into);
  const kind = DTYPE_INFO[x.dtype].kind;
  // PyTorch 1.13 fails an internal assert here (result.scalar_type() == toRealValueType(...)); a coded refusal.
  if (kind !== 'float' && kind !== 'complex')
    throw new DTypeUnsupportedError(
      `frobenius norm: input dtype should be either floating point or complex, got ${x.dtype}`,
      { op: OP, arg: 'input', got: x.dtype, expected: 'a floating point or complex dtype' },
    );
  const wrap = (d: number) => (d < 0 ? d + Math.max(x.ndim, 1) : d);
  if (wrap(dim[0]) === wrap(dim[1]))
    throw new InvalidArgumentError(`Expected dims to be different, got [${dim.join(', ')}] instead`, {
      op: OP,
      arg: 'dim',
      got: `[${dim.join(', ')}]`,
      expected: 'two different dims',
    });
  // PyTorch squares a complex element as real(conj(x) * x); |x| * |x| is the same up to rounding.
  const a = kind === 'complex' ? t('abs', [x]) : x;
  const sq = t('mul', [a, a]);
  return t('sqrt', [t('sum', [sq, [...dim], keepdim])], into);
}

function pythonNorm(
  x: Tensor,
  p: unknown,
  dim: unknown,
  keepdim: boolean,
  out: Tensor | null,
  dtype: string | null,
): Tensor {
  if (dim == null && out == null && dtype == null && p != null) {
    if (p === 'fro') return frobenius(x, [], keepdim, null);
    if (typeof p !== 'string') return t('norm', [x, p, allDims(x), keepdim]);
  }
  const dims = dim == null ? null : typeof dim === 'number' ? [dim] : (dim as number[]);
  if (typeof p === 'string') {
    if (p === 'fro') {
      if (dtype != null)
        throw new InvalidArgumentError('dtype argument is not supported in frobenius norm', {
          op: OP,
          arg: 'dtype',
          got: dtype,
          expected: "None with p='fro'",
        });
      return frobenius(x, dims ?? allDims(x), keepdim, out);
    }
    if (p === 'nuc')
      throw new NotImplementedError(
        "p='nuc': the nuclear norm needs a singular value decomposition (not implemented)",
        {
          op: OP,
          arg: 'p',
          got: "'nuc'",
          expected: "a number, None or 'fro'",
        },
      );
    throw new InvalidArgumentError(`only valid string values are 'fro' and 'nuc', found ${p}`, {
      op: OP,
      arg: 'p',
      got: `'${p}'`,
      expected: "'fro' or 'nuc'",
    });
  }
  // _VF.norm(input, p, dim, keepdim=keepdim, dtype=dtype, out=out): dtype casts the input before reducing.
  const input = dtype == null ? x : t('to', [x, dtype]);
  return t('norm', [input, p as Scalar | number | null, dims ?? allDims(x), keepdim], out ? { out } : {});
}

export function registerPythonNorms(): void {
  const tags = { family: 'reduction', decomposed: true, pythonOnly: true } as const;
  const run = (a: BoundArgs) =>
    pythonNorm(
      a.input as Tensor,
      a.p,
      a.dim,
      a.keepdim as boolean,
      (a.out as Tensor | null) ?? null,
      (a.dtype as string | null) ?? null,
    );
  // torch.norm(input, p='fro', dim=None, keepdim=False, out=None, dtype=None)
  defineOp({
    schema:
      '_functional_norm(Tensor input, Any? p="fro", Any? dim=None, bool keepdim=False, Tensor(a!)? out=None, ScalarType? dtype=None) -> Tensor',
    tags,
    composite: run,
  });
  // Tensor.norm(self, p='fro', dim=None, keepdim=False, dtype=None)
  defineOp({
    schema:
      '_functional_tensor_norm(Tensor input, Any? p="fro", Any? dim=None, bool keepdim=False, ScalarType? dtype=None) -> Tensor',
    tags,
    composite: run,
  });
  operatorTable.pythonDefinition('norm', { function: '_functional_norm', method: '_functional_tensor_norm' });
}
