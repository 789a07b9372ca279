/**
 * pixel_shuffle and pixel_unshuffle: a new tensor holding the input's elements moved between the channel dim
 * and r x r spatial blocks ([*, C r^2, H, W] <-> [*, C, H r, W r]). One strided copy from a view of the input
 * into a view of the output (no intermediate tensor); a channels_last input gives a channels_last output, as
 * PyTorch 1.13's cpu kernel does. Each op's derivative is the other, so gradgrad works.
 */
import { defineDerivative } from '../../../autograd/index.ts';
import {
  channelsLastStrides,
  contiguousStrides,
  InvalidArgumentError,
  ShapeMismatchError,
  Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { defineOut, callTensor as t } from '../../op_helpers.ts';
import { copyOn } from '../../out_write.ts';
import { isChannelsLast } from '../../shape/index.ts';
import { defineOp, type OutSpec } from '../../structured.ts';

export const PIXEL_SHUFFLE_API = {
  pixel_shuffle: 'function',
  pixel_unshuffle: 'function',
} as const satisfies ApiDecl;

type Kind = 'pixel_shuffle' | 'pixel_unshuffle';

/** PyTorch's checks, then the output shape. */
function plan(op: Kind, self: Tensor, r: number): number[] {
  const arg = op === 'pixel_shuffle' ? 'upscale_factor' : 'downscale_factor';
  if (self.dim() < 3)
    throw new ShapeMismatchError(
      `${op} expects input to have at least 3 dimensions, but got input with ${self.dim()} dimension(s)`,
      { op, arg: 'self', got: self.dim(), expected: 'at least 3 dims' },
    );
  if (r <= 0)
    throw new InvalidArgumentError(`${op} expects a positive ${arg}, but got ${r}`, {
      op,
      arg,
      got: r,
      expected: 'a positive factor',
    });
  const nd = self.dim();
  const [c, h, w] = self.shape.slice(nd - 3);
  const lead = self.shape.slice(0, nd - 3);
  const indivisible = (what: string, d: number, by: number) =>
    new ShapeMismatchError(
      `${op} expects ${what} to be divisible by ${op === 'pixel_shuffle' ? 'the square of ' : ''}${arg}, but input.size(${d})=${self.shape[nd + d]} is not divisible by ${by}`,
      { op, arg: 'self', got: self.shape[nd + d], expected: `a multiple of ${by}` },
    );
  if (op === 'pixel_shuffle') {
    if (c % (r * r) !== 0) throw indivisible("its input's 'channel' dimension", -3, r * r);
    return [...lead, c / (r * r), h * r, w * r];
  }
  if (h % r !== 0) throw indivisible('height', -2, r);
  if (w % r !== 0) throw indivisible('width', -1, r);
  return [...lead, c * r * r, h / r, w / r];
}

/**
 * Both ops see the element (c, i, j, y, x) of a 6-d [*, C, r, r, H, W] view of the channel-major side at
 * (c, y, i, x, j) of a [*, C, H, r, W, r] view of the spatial side.
 */
function shuffle(op: Kind, self: Tensor, r: number): Tensor {
  const shape = plan(op, self, r);
  // PyTorch 1.13's pixel_unshuffle returns an empty input's clone, in the input's shape.
  if (op === 'pixel_unshuffle' && self.numel === 0) return t('clone', [self]);
  const strides = isChannelsLast(self) ? channelsLastStrides(shape) : contiguousStrides(shape);
  const out = Tensor.empty(shape, self.dtype, self.device, strides);
  fill(op, out, self, r);
  return out;
}

function fill(op: Kind, out: Tensor, self: Tensor, r: number): void {
  const [packed, spread] = op === 'pixel_shuffle' ? [self, out] : [out, self];
  const nd = packed.dim();
  const lead = packed.shape.slice(0, nd - 3);
  const [c, h, w] = packed.shape.slice(nd - 3);
  const k = lead.length;
  const blocks = t('view', [packed, [...lead, c / (r * r), r, r, h, w]]);
  const rows = t('view', [spread, [...lead, c / (r * r), h, r, w, r]]);
  const order = [...lead.keys(), k, k + 3, k + 1, k + 4, k + 2];
  if (op === 'pixel_shuffle') t('copy_', [rows, t('permute', [blocks, order])]);
  else {
    const inverse = order.map((_, i) => order.indexOf(i));
    t('copy_', [blocks, t('permute', [rows, inverse])]);
  }
}

function defineShuffle(op: Kind, other: Kind, arg: string): void {
  const kernel = (a: BoundArgs) => shuffle(op, a.self as Tensor, a[arg] as number);
  defineOp({
    schema: `${op}(Tensor self, int ${arg}) -> Tensor`,
    tags: { family: 'shape' },
    cpu: kernel,
    meta: kernel,
    webgpu: kernel,
  });
  // The generated out= wrapper: the functional result copied (cast) into the resized out.
  const meta = (a: BoundArgs): OutSpec => {
    const self = a.self as Tensor;
    const shape = plan(op, self, a[arg] as number);
    return { shape: op === 'pixel_unshuffle' && self.numel === 0 ? self.shape : shape, dtype: self.dtype };
  };
  const impl = (a: BoundArgs, out: Tensor) => copyOn(out, kernel(a));
  defineOut(
    `${op}.out(Tensor self, int ${arg}, *, Tensor(a!) out) -> Tensor(a!)`,
    { family: 'shape' },
    meta,
    { cpu: impl, webgpu: impl },
    () => {},
  );
  defineDerivative(op, { saves: [], formula: (c) => [t(other, [c.grad, c.args[arg]])] });
}

export function registerPixelShuffle(): void {
  defineShuffle('pixel_shuffle', 'pixel_unshuffle', 'upscale_factor');
  defineShuffle('pixel_unshuffle', 'pixel_shuffle', 'downscale_factor');
  for (const n of ['pixel_shuffle', 'pixel_unshuffle']) operatorTable.alias(`nn.functional.${n}`, n);
  operatorTable.declare(PIXEL_SHUFFLE_API);
}
