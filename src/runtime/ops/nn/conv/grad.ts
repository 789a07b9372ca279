/**
 * convolution's derivative, written in convolution itself (so the second derivative is convolution's derivative
 * again): the input's gradient is the adjoint convolution of the output gradient (transposed <-> not, with the
 * output_padding that restores the input's size), the weight's a convolution of the input by the gradient with
 * batch and channels swapped (stride and dilation trade places; groups stay groups), the bias's a sum.
 */
import type { Tensor } from '../../../core/index.ts';
import type { BoundArgs } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';

/** A convolution's checked arguments, every list expanded to one value per spatial dim (convolution.ts). */
export interface ConvParams {
  readonly stride: number[];
  readonly padding: number[];
  readonly dilation: number[];
  readonly outputPadding: number[];
  readonly transposed: boolean;
  readonly groups: number;
}

/** Spatial dims of a tensor narrowed to `sizes` (the weight gradient's window can overhang the kernel). */
function narrowTo(x: Tensor, sizes: readonly number[]): Tensor {
  let r = x;
  sizes.forEach((s, i) => {
    if (r.shape[i + 2] !== s) r = t('narrow', [r, i + 2, 0, s]);
  });
  return r;
}

/**
 * d(loss)/d(weight) of conv(x, w) given the output gradient g: for each group, a convolution of x's channels
 * (as the batch) by g's batch (as the channels), stride and dilation swapped; its output is [cin_g, cout, k'].
 */
function weightGrad(x: Tensor, g: Tensor, kSize: readonly number[], p: ConvParams): Tensor {
  const G = p.groups;
  const [n, ci] = x.shape;
  const co = g.shape[1];
  const sx = x.shape.slice(2);
  const sg = g.shape.slice(2);
  const rest = sx.map((_, i) => i + 3);
  const xs = t('reshape', [
    t('permute', [t('reshape', [x, [n, G, ci / G, ...sx]]), [2, 1, 0, ...rest]]),
    [ci / G, G * n, ...sx],
  ]);
  const gs = t('reshape', [
    t('permute', [t('reshape', [g, [n, G, co / G, ...sg]]), [1, 2, 0, ...rest]]),
    [co, n, ...sg],
  ]);
  const zeros = p.stride.map(() => 0);
  const r = t('convolution', [xs, gs, null, p.dilation, p.padding, p.stride, false, zeros, G]);
  return narrowTo(t('transpose', [r, 0, 1]), kSize);
}

/** `convParams` is convolution.ts's argument check (passed in: convolution.ts registers this derivative). */
export function convolutionBackward(
  c: {
    grad: Tensor;
    args: BoundArgs;
    shapes: Readonly<Record<string, readonly number[]>>;
  },
  convParams: (input: Tensor, weight: Tensor, bias: Tensor | null, a: BoundArgs) => ConvParams,
): (Tensor | null)[] {
  const { grad, args } = c;
  const x = args.input as Tensor;
  const w = args.weight as Tensor;
  const p = convParams(x, w, null, { ...args, bias: null });
  const kSize = w.shape.slice(2);
  const zeros = p.stride.map(() => 0);
  let gx: Tensor;
  let gw: Tensor;
  if (!p.transposed) {
    const out = grad.shape.slice(2);
    const extra = x.shape.slice(2).map((s, i) => {
      const used = (out[i] - 1) * p.stride[i] - 2 * p.padding[i] + p.dilation[i] * (kSize[i] - 1) + 1;
      return s - used;
    });
    gx = t('convolution', [grad, w, null, p.stride, p.padding, p.dilation, true, extra, p.groups]);
    gw = weightGrad(x, grad, kSize, p);
  } else {
    gx = narrowTo(
      t('convolution', [grad, w, null, p.stride, p.padding, p.dilation, false, zeros, p.groups]),
      x.shape.slice(2),
    );
    gw = weightGrad(grad, x, kSize, p);
  }
  const gb = c.shapes.bias ? t('sum', [grad, [0, ...grad.shape.slice(2).map((_, i) => i + 2)]]) : null;
  return [gx, gw, gb];
}
