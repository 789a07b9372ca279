/**
 * Distances and normalisation, written in differentiable runtime ops (autograd records the decomposition):
 * cosine_similarity, pairwise_distance, pdist, cdist, torch.dist, and the Python-only
 * torch.nn.functional.normalize. Each keeps PyTorch 1.13's checks, their order and its arithmetic
 * (pairwise_distance adds eps to the difference before the norm; cosine_similarity divides each input by its
 * clamped norm before the dot product).
 *
 * pdist and cdist compute every distance from the differences, for every compute_mode: PyTorch's matrix-product
 * shortcut (|a|^2 + |b|^2 - 2 a.b) is a speed trade that loses digits to cancellation, not a different result.
 */
import {
  broadcastShapes,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  InvalidArgumentError,
  isFloatingDType,
  isIntegralDType,
  promotionOperand,
  resultType,
  Scalar,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';

export const NN_DISTANCE_API = {
  cosine_similarity: 'function',
  pairwise_distance: 'function',
  pdist: 'function',
  cdist: 'function',
  dist: 'function, method',
  normalize: 'function',
} as const satisfies ApiDecl;

const torchName = (d: DType) => DTYPE_INFO[d].torchName;

/**
 * `x` clamped below at `min` in place under no_grad, as PyTorch does: the value is the clamped one, the gradient
 * flows into `x` as if unclamped.
 */
function clampedNoGrad(x: Tensor, min: number): Tensor {
  const v = t('detach', [x]);
  return t('add', [x, t('sub', [t('clamp', [v], { min }), v])]);
}

/**
 * PyTorch 1.13's cosine_similarity: each input divided by the square root of its squared norm, the squared norm
 * clamped below at eps^2 under no_grad (so where it is clamped, the gradient is not the derivative of the value).
 */
function cosineSimilarity(x1: Tensor, x2: Tensor, dim: number, eps: number): Tensor {
  const common = resultType([promotionOperand(x1), promotionOperand(x2)]);
  if (!isFloatingDType(common))
    throw new DTypeUnsupportedError(
      `expected common dtype to be floating point, yet common dtype is ${torchName(common)}`,
      { op: 'cosine_similarity', arg: 'x1', got: common, expected: 'a floating common dtype' },
    );
  // Integer (and bool) inputs are cast to the common dtype; a floating one keeps its own.
  const cast = (x: Tensor) => (isIntegralDType(x.dtype, true) ? t('to', [x, common]) : x);
  const shape = broadcastShapes(x1.shape, x2.shape, 'cosine_similarity');
  const [a, b] = [t('expand', [cast(x1), shape]), t('expand', [cast(x2), shape])];
  const unit = (x: Tensor) => {
    const squared = t('sum', [t('pow', [x, 2]), [dim], true]);
    return t('div', [x, t('sqrt', [clampedNoGrad(squared, eps * eps)])]);
  };
  return t('sum', [t('mul', [unit(a), unit(b)]), [dim]]);
}

function pairwiseDistance(x1: Tensor, x2: Tensor, p: number, eps: number, keepdim: boolean): Tensor {
  const innermost = Math.max(x1.dim(), x2.dim()) - 1;
  // eps is a C++ double: integral inputs become the default float dtype even for eps = 0.
  return t('norm', [t('add', [t('sub', [x1, x2]), new Scalar('float', eps)]), p, [innermost], keepdim]);
}

/** The p-norms over the last dim of x1[..., i, :] - x2[..., j, :]; legacy norm: 0 over no columns, every p. */
const distances = (x1: Tensor, x2: Tensor, p: number) =>
  t('norm', [t('sub', [t('unsqueeze', [x1, -2]), t('unsqueeze', [x2, -3])]), p, [-1]]);

function pdist(self: Tensor, p: number): Tensor {
  const op = 'pdist';
  if (self.dim() !== 2)
    throw new ShapeMismatchError(`pdist only supports 2D tensors, got: ${self.dim()}D`, {
      op,
      arg: 'self',
      got: self.dim(),
      expected: 2,
    });
  if (!isFloatingDType(self.dtype))
    throw new DTypeUnsupportedError('pdist only supports floating-point dtypes', {
      op,
      arg: 'self',
      got: self.dtype,
      expected: 'a floating dtype',
    });
  if (!(p >= 0))
    throw new InvalidArgumentError('pdist only supports non-negative p values', {
      op,
      arg: 'p',
      got: p,
      expected: '>= 0',
    });
  const n = self.shape[0];
  // Row i against the rows after it, in order: the upper triangle of the distance matrix, row by row.
  const parts = [t('norm', [t('narrow', [self, 0, 0, 0]), p, [1]])];
  for (let i = 0; i + 1 < n; i++) {
    const diff = t('sub', [t('narrow', [self, 0, i, 1]), t('narrow', [self, 0, i + 1, n - i - 1])]);
    parts.push(t('norm', [diff, p, [1]]));
  }
  return t('cat', [parts]);
}

/** torch.cdist's compute_mode names, as the aten op's int modes (all computed the same way here). */
const COMPUTE_MODES = [
  'use_mm_for_euclid_dist_if_necessary',
  'use_mm_for_euclid_dist',
  'donot_use_mm_for_euclid_dist',
];

function cdist(x1: Tensor, x2: Tensor, p: number, mode: string | null): Tensor {
  const op = 'cdist';
  if (mode === null || !COMPUTE_MODES.includes(mode))
    throw new InvalidArgumentError(`${mode ?? 'None'} is not a valid value for compute_mode`, {
      op,
      arg: 'compute_mode',
      got: mode ?? 'None',
      expected: COMPUTE_MODES.join(' | '),
    });
  for (const [x, name] of [
    [x1, 'X1'],
    [x2, 'X2'],
  ] as const)
    if (x.dim() < 2)
      throw new ShapeMismatchError(`cdist only supports at least 2D tensors, ${name} got: ${x.dim()}D`, {
        op,
        arg: name.toLowerCase(),
        got: x.dim(),
        expected: '>= 2',
      });
  const c1 = x1.shape[x1.dim() - 1];
  const c2 = x2.shape[x2.dim() - 1];
  if (c1 !== c2)
    throw new ShapeMismatchError(`X1 and X2 must have the same number of columns. X1: ${c1} X2: ${c2}`, {
      op,
      arg: 'x2',
      got: c2,
      expected: c1,
    });
  for (const [x, name] of [
    [x1, 'X1'],
    [x2, 'X2'],
  ] as const)
    if (!isFloatingDType(x.dtype))
      throw new DTypeUnsupportedError(
        `cdist only supports floating-point dtypes, ${name} got: ${torchName(x.dtype)}`,
        { op, arg: name.toLowerCase(), got: x.dtype, expected: 'a floating dtype' },
      );
  if (!(p >= 0))
    throw new InvalidArgumentError('cdist only supports non-negative p values', {
      op,
      arg: 'p',
      got: p,
      expected: '>= 0',
    });
  const empty = x1.shape[x1.dim() - 2] === 0 || x2.shape[x2.dim() - 2] === 0 || c1 === 0;
  // The kernels read both inputs as one scalar type: only a computed distance needs them to agree.
  if (!empty && x1.dtype !== x2.dtype)
    throw new DTypeUnsupportedError(
      `expected scalar type ${torchName(x1.dtype)} but found ${torchName(x2.dtype)}`,
      { op, arg: 'x2', got: x2.dtype, expected: x1.dtype },
    );
  return distances(x1, empty && x2.dtype !== x1.dtype ? t('to', [x2, x1.dtype]) : x2, p);
}

/**
 * F.normalize: input / max(||input||_p over dim, eps), the norm broadcast back over dim. Tensor.norm is the legacy
 * norm in 1.13 (0 over an empty dim for every p, where linalg.vector_norm refuses inf and negative p).
 */
function normalize(input: Tensor, p: number, dim: number[], eps: number, out: Tensor | null): Tensor {
  const denom = t('expand_as', [t('clamp', [t('norm', [input, p, dim, true])], { min: eps }), input]);
  return t('div', [input, denom], out ? { out } : {});
}

export function registerNnDistance(): void {
  const decomposed = { family: 'reduction', decomposed: true } as const;
  defineOp({
    schema: 'cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor',
    tags: decomposed,
    composite: (a) => cosineSimilarity(a.x1 as Tensor, a.x2 as Tensor, a.dim as number, a.eps as number),
  });
  defineOp({
    schema:
      'pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=9.9999999999999995e-07, bool keepdim=False) -> Tensor',
    tags: decomposed,
    composite: (a) =>
      pairwiseDistance(a.x1 as Tensor, a.x2 as Tensor, a.p as number, a.eps as number, a.keepdim as boolean),
  });
  defineOp({
    schema: 'pdist(Tensor self, float p=2.) -> Tensor',
    tags: decomposed,
    composite: (a) => pdist(a.self as Tensor, a.p as number),
  });
  // torch.cdist is a Python function over aten::cdist: its compute_mode is a name (aten's is 0, 1 or 2).
  defineOp({
    schema:
      'cdist(Tensor x1, Tensor x2, float p=2., str? compute_mode="use_mm_for_euclid_dist_if_necessary") -> Tensor',
    tags: decomposed,
    composite: (a) => cdist(a.x1 as Tensor, a.x2 as Tensor, a.p as number, a.compute_mode as string | null),
  });
  // at::dist is at::norm(self - other, p); dist.out is 1.13's generated out= form (the result copied into out).
  const dist = (a: BoundArgs) => t('norm', [t('sub', [a.self as Tensor, a.other as Tensor]), a.p as Scalar]);
  defineOp({
    schema: 'dist(Tensor self, Tensor other, Scalar p=2) -> Tensor',
    tags: decomposed,
    composite: dist,
  });
  defineOp({
    schema: 'dist.out(Tensor self, Tensor other, Scalar p=2, *, Tensor(a!) out) -> Tensor(a!)',
    tags: decomposed,
    composite: (a) => {
      const r = dist(a);
      return t('copy_', [t('resize_', [a.out as Tensor, r.shape]), r]);
    },
  });
  defineOp({
    schema:
      'normalize(Tensor input, float p=2., int[1] dim=1, float eps=9.9999999999999998e-13, *, Tensor(a!)? out=None) -> Tensor',
    tags: { ...decomposed, pythonOnly: true },
    composite: (a) =>
      normalize(a.input as Tensor, a.p as number, a.dim as number[], a.eps as number, a.out as Tensor | null),
  });
  for (const n of ['cosine_similarity', 'pairwise_distance', 'pdist', 'normalize'])
    operatorTable.alias(`nn.functional.${n}`, n);
  operatorTable.declare(NN_DISTANCE_API);
}
