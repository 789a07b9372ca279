/**
 * torch.nn.functional activations that are not one pointwise row: glu and prelu (aten ops, written here in
 * differentiable runtime ops, so autograd records the decomposition) and the Python-only functions softsign,
 * tanhshrink and softmin (no aten schema: their runtime schema is the Python signature, `pythonOnly`).
 */
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  ShapeMismatchError,
  type Tensor,
  wrapDim,
} from '../../../core/index.ts';
import { type ApiDecl, operatorTable } from '../../../dispatch/index.ts';
import { requireFloating, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';

export const NN_ACTIVATION_API = {
  glu: 'function',
  prelu: 'function, method',
  softsign: 'function',
  tanhshrink: 'function',
  softmin: 'function',
} as const satisfies ApiDecl;

/** glu(x, dim) = a * sigmoid(b), a and b the two halves of x along dim. */
function glu(self: Tensor, dimArg: number, out?: Tensor): Tensor {
  requireFloating(self, 'glu_cpu', 'glu');
  if (self.dim() === 0)
    throw new InvalidArgumentError('glu does not support scalars because halving size must be even', {
      op: 'glu',
      arg: 'self',
      got: '0-dim',
      expected: 'at least one dim',
    });
  const dim = wrapDim(dimArg, self.dim(), 'glu');
  const n = self.shape[dim];
  if (n % 2 !== 0)
    throw new InvalidArgumentError(`Halving dimension must be even, but dimension ${dim} is size ${n}`, {
      op: 'glu',
      arg: 'dim',
      got: n,
      expected: 'an even size',
    });
  const a = t('narrow', [self, dim, 0, n / 2]);
  const b = t('narrow', [self, dim, n / 2, n / 2]);
  return t('mul', [a, t('sigmoid', [b])], out ? { out } : {});
}

/** prelu(x, w) = x where x > 0, else w * x, w one weight or one per channel (dim 1). */
function prelu(self: Tensor, weight: Tensor, out?: Tensor): Tensor {
  requireFloating(self, 'prelu_cpu', 'prelu');
  if (weight.dim() > 1)
    throw new InvalidArgumentError(
      `prelu: Expected \`weight\` to be a scalar or 1D tensor, but got ndim = ${weight.dim()}`,
      { op: 'prelu', arg: 'weight', got: weight.dim(), expected: 'ndim 0 or 1' },
    );
  if (weight.dtype !== self.dtype)
    throw new DTypeUnsupportedError(
      `Found dtype ${DTYPE_INFO[weight.dtype].torchName} but expected ${DTYPE_INFO[self.dtype].torchName}`,
      { op: 'prelu', arg: 'weight', got: weight.dtype, expected: self.dtype },
    );
  const channels = self.dim() >= 2 ? self.shape[1] : 1;
  if (weight.numel !== 1 && weight.numel !== channels)
    throw new ShapeMismatchError(
      `Mismatch of parameter numbers and input channel size. Found parameter numbers = ${weight.numel} and channel size = ${channels}.`,
      { op: 'prelu', arg: 'weight', got: weight.numel, expected: `1 or ${channels}` },
    );
  // One weight per channel, viewed as [C, 1, ..., 1] so it broadcasts over dim 1.
  const w =
    weight.numel === 1 || self.dim() < 2
      ? t('reshape', [weight, []])
      : t('reshape', [weight, [channels, ...Array(self.dim() - 2).fill(1)]]);
  return t('where', [t('gt', [self, 0]), self, t('mul', [w, self])], out ? { out } : {});
}

/** F.softmin's legacy dim when none is given (_get_softmax_dim): 0 for 0-, 1- and 3-dim inputs, else 1. */
const legacySoftmaxDim = (ndim: number) => (ndim === 0 || ndim === 1 || ndim === 3 ? 0 : 1);

export function registerNnActivations(): void {
  const decomposed = { family: 'pointwise', decomposed: true } as const;
  defineOp({
    schema: 'glu(Tensor self, int dim=-1) -> Tensor',
    tags: decomposed,
    composite: (a) => glu(a.self as Tensor, a.dim as number),
  });
  defineOp({
    schema: 'glu.out(Tensor self, int dim=-1, *, Tensor(a!) out) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => glu(a.self as Tensor, a.dim as number, a.out as Tensor),
  });
  defineOp({
    schema: 'prelu(Tensor self, Tensor weight) -> Tensor',
    tags: decomposed,
    composite: (a) => prelu(a.self as Tensor, a.weight as Tensor),
  });
  defineOp({
    schema: 'prelu.out(Tensor self, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => prelu(a.self as Tensor, a.weight as Tensor, a.out as Tensor),
  });
  const python = { ...decomposed, pythonOnly: true } as const;
  defineOp({
    schema: 'softsign(Tensor input) -> Tensor',
    tags: python,
    composite: (a) => t('div', [a.input, t('add', [t('abs', [a.input]), 1])]),
  });
  defineOp({
    schema: 'tanhshrink(Tensor input) -> Tensor',
    tags: python,
    composite: (a) => t('sub', [a.input, t('tanh', [a.input])]),
  });
  defineOp({
    schema: 'softmin(Tensor input, int? dim=None, int _stacklevel=3, ScalarType? dtype=None) -> Tensor',
    tags: python,
    composite: (a) => {
      const x = a.input as Tensor;
      const dim = (a.dim as number | null) ?? legacySoftmaxDim(x.dim());
      return t('softmax', [t('neg', [x]), dim], { dtype: a.dtype });
    },
  });
  for (const n of ['glu', 'prelu', 'softsign', 'tanhshrink', 'softmin'])
    operatorTable.alias(`nn.functional.${n}`, n);
  operatorTable.declare(NN_ACTIVATION_API);
}
