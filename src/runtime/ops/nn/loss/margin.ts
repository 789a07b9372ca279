/**
 * Margin and embedding losses that aten writes as composites (hinge_embedding_loss, margin_ranking_loss,
 * soft_margin_loss, cosine_embedding_loss, triplet_margin_loss), here in differentiable runtime ops with aten's
 * op order, so dtypes, promotion and the errors of the inner ops are PyTorch's (an integer hinge loss stays
 * integral, a float16 one is refused by clamp_min as on PyTorch's CPU). Their Python layers are in
 * nn/loss/margin_functional.ts.
 */
import { isGradEnabled } from '../../../autograd/index.ts';
import {
  AutogradError,
  DTYPE_INFO,
  DTypeUnsupportedError,
  Scalar,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, operatorTable } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import { applyLossReduction } from './reduction.ts';

export const LOSS_MARGIN_API = {
  hinge_embedding_loss: 'function',
  margin_ranking_loss: 'function',
  soft_margin_loss: 'function',
  cosine_embedding_loss: 'function',
  triplet_margin_loss: 'function',
} as const satisfies ApiDecl;

/** x clamped below at 0 (aten's clamp_min_(0), which has no CPU float16 kernel in 1.13). */
export const clampMin0 = (x: Tensor) => t('clamp', [x], { min: 0 });

function hingeEmbedding(self: Tensor, target: Tensor, margin: number, reduction: number): Tensor {
  const zeros = t('zeros_like', [self]);
  // C++'s `margin - self` fills a tensor like self with margin first: an integer self truncates the margin.
  const marginClamp = clampMin0(t('sub', [t('full_like', [self, margin]), self]));
  const outputMargin = t('where', [t('ne', [target, 1]), marginClamp, zeros]);
  const outputSelf = t('where', [t('ne', [target, -1]), self, zeros]);
  return applyLossReduction(t('add', [outputMargin, outputSelf]), reduction);
}

function marginRanking(x1: Tensor, x2: Tensor, target: Tensor, margin: number, reduction: number): Tensor {
  // A C++ double: an integral loss becomes the default float dtype even for margin 0.
  const loss = t('add', [t('mul', [t('neg', [target]), t('sub', [x1, x2])]), new Scalar('float', margin)]);
  return applyLossReduction(clampMin0(loss), reduction);
}

/**
 * log(1 + exp(-input * target)), computed as aten's in-place chain on an output of input's dtype: the product is
 * rounded to input's dtype before exp, and an integral input cannot hold exp's floating result.
 */
function softMargin(input: Tensor, target: Tensor, reduction: number, out?: Tensor | null): Tensor {
  const kind = DTYPE_INFO[input.dtype].kind;
  if (kind === 'int')
    throw new DTypeUnsupportedError(
      `result type Float can't be cast to the desired output type ${DTYPE_INFO[input.dtype].torchName}`,
      { op: 'soft_margin_loss', arg: 'self', got: input.dtype, expected: 'a floating or complex dtype' },
    );
  if (out && out.dtype !== input.dtype)
    throw new DTypeUnsupportedError(
      `Found dtype ${DTYPE_INFO[out.dtype].torchName} but expected ${DTYPE_INFO[input.dtype].torchName}`,
      { op: 'soft_margin_loss', arg: 'out', got: out.dtype, expected: input.dtype },
    );
  // aten's soft_margin_loss has a derivative for self only.
  if (target.requiresGrad && isGradEnabled())
    throw new AutogradError(
      "The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. This input cannot have requires_grad True.",
      { op: 'soft_margin_loss', arg: 'target', got: 'requires_grad', expected: 'no grad' },
    );
  const product = t('mul', [t('neg', [input]), target]);
  const shape = product.shape;
  if (shape.length !== input.dim() || shape.some((n, d) => n !== input.shape[d]))
    throw new ShapeMismatchError(
      `output with shape [${input.shape.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`,
      { op: 'soft_margin_loss', arg: 'target', got: `[${shape.join(', ')}]`, expected: `[${input.shape}]` },
    );
  // aten's chain is exp_().add_(1).log_() (not log1p): 1 + exp rounds to the dtype before the log.
  const onePlus = t('add', [t('exp', [t('to', [product, input.dtype])]), 1]);
  if (reduction === 0) return t('log', [onePlus], out ? { out } : {});
  return applyLossReduction(t('log', [onePlus]), reduction, out);
}

/** The squared norms get 1e-12 (aten's EPSILON) before their product's square root. */
const EPSILON = 1e-12;
const sizes = (x: Tensor) => `[${x.shape.join(', ')}]`;

function cosineEmbedding(x1: Tensor, x2: Tensor, target: Tensor, margin: number, reduction: number): Tensor {
  const op = 'cosine_embedding_loss';
  const dim = target.dim();
  if (dim !== 0 && dim !== 1)
    throw new ShapeMismatchError('0D or 1D target tensor expected, multi-target not supported', {
      op,
      arg: 'target',
      got: dim,
      expected: '0 or 1 dims',
    });
  const want = dim + 1;
  if (x1.dim() !== want || x2.dim() !== want)
    throw new ShapeMismatchError(
      `${dim}D target tensor expects ${want}D input tensors, but found inputs with sizes ${sizes(x1)} and ${sizes(x2)}.`,
      { op, arg: 'input1', got: `${x1.dim()} and ${x2.dim()} dims`, expected: `${want} dims` },
    );
  const prodSum = t('sum', [t('mul', [x1, x2]), [dim]]);
  const mag1 = t('add', [t('sum', [t('mul', [x1, x1]), [dim]]), EPSILON]);
  const mag2 = t('add', [t('sum', [t('mul', [x2, x2]), [dim]]), EPSILON]);
  const cos = t('div', [prodSum, t('sqrt', [t('mul', [mag1, mag2])])]);
  const zeros = t('zeros_like', [cos]);
  const pos = t('sub', [t('full_like', [cos, 1]), cos]);
  const neg = clampMin0(t('sub', [cos, margin]));
  const outPos = t('where', [t('eq', [target, 1]), pos, zeros]);
  const outNeg = t('where', [t('eq', [target, -1]), neg, zeros]);
  return applyLossReduction(t('add', [outPos, outNeg]), reduction);
}

function tripletMargin(
  a: { anchor: Tensor; positive: Tensor; negative: Tensor },
  margin: number,
  p: number,
  eps: number,
  swap: boolean,
  reduction: number,
): Tensor {
  const { anchor, positive, negative } = a;
  const [ad, pd, nd] = [anchor.dim(), positive.dim(), negative.dim()];
  if (ad !== pd || pd !== nd)
    throw new ShapeMismatchError(
      `All inputs should have same dimension but got ${ad}D, ${pd}D and ${nd}D inputs.`,
      { op: 'triplet_margin_loss', arg: 'negative', got: `${ad}D, ${pd}D, ${nd}D`, expected: 'equal dims' },
    );
  const dist = (x: Tensor, y: Tensor) => t('pairwise_distance', [x, y, p, eps]);
  const distPos = dist(anchor, positive);
  let distNeg = dist(anchor, negative);
  if (swap) distNeg = t('minimum', [distNeg, dist(positive, negative)]);
  return applyLossReduction(clampMin0(t('sub', [t('add', [distPos, margin]), distNeg])), reduction);
}

export function registerLossMargin(): void {
  const tags = { family: 'loss', decomposed: true } as const;
  const red = (a: Record<string, unknown>) => a.reduction as number;
  defineOp({
    schema: 'hinge_embedding_loss(Tensor self, Tensor target, float margin=1., int reduction=1) -> Tensor',
    tags,
    composite: (a) => hingeEmbedding(a.self as Tensor, a.target as Tensor, a.margin as number, red(a)),
  });
  defineOp({
    schema:
      'margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> Tensor',
    tags,
    composite: (a) =>
      marginRanking(a.input1 as Tensor, a.input2 as Tensor, a.target as Tensor, a.margin as number, red(a)),
  });
  defineOp({
    schema: 'soft_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor',
    tags,
    composite: (a) => softMargin(a.self as Tensor, a.target as Tensor, red(a)),
  });
  defineOp({
    schema:
      'soft_margin_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)',
    tags: { family: 'loss' },
    composite: (a) => softMargin(a.self as Tensor, a.target as Tensor, red(a), a.out as Tensor),
  });
  defineOp({
    schema:
      'cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> Tensor',
    tags,
    composite: (a) =>
      cosineEmbedding(a.input1 as Tensor, a.input2 as Tensor, a.target as Tensor, a.margin as number, red(a)),
  });
  defineOp({
    schema:
      'triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1., float p=2., float eps=9.9999999999999995e-07, bool swap=False, int reduction=1) -> Tensor',
    tags,
    composite: (a) =>
      tripletMargin(
        a as unknown as { anchor: Tensor; positive: Tensor; negative: Tensor },
        a.margin as number,
        a.p as number,
        a.eps as number,
        a.swap as boolean,
        red(a),
      ),
  });
  operatorTable.declare(LOSS_MARGIN_API);
}
