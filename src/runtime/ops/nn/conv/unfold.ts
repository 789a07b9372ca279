/**
 * Sliding blocks: aten's im2col (F.unfold: every kernel_size window of a [N, C, H, W] or [C, H, W] input as a
 * column, [N, C kh kw, L]) and col2im (F.fold: the columns summed back into the image, overlapping windows
 * adding up). Each is the other's derivative, so gradgrad works. The cpu kernels walk the windows row by row
 * through the operands' strides (col2im accumulates in the output's dtype in PyTorch's order, as its kernel does);
 * webgpu builds im2col as a strided view of the (zero-padded) input copied into the output, and col2im as one
 * strided add per kernel offset into a padded buffer.
 */
import { defineDerivative } from '../../../autograd/index.ts';
import { elementCopier, numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import {
  contiguousStrides,
  DimOutOfRangeError,
  DTYPE_INFO,
  type DType,
  InvalidArgumentError,
  ResultTypeError,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { notImplementedFor, type OutImpl, callTensor as t, zeroWriter } from '../../op_helpers.ts';
import { defineOp, defineStructured, type OutSpec } from '../../structured.ts';
import { type Blocks, col2imGPU, im2colGPU } from './unfold_gpu.ts';

const pair = (v: number[]) => `(${v[0]}, ${v[1]})`;
const divRtn = (a: number, b: number) => Math.floor(a / b);
const count = (size: number, b: Omit<Blocks, 'h' | 'w' | 'oh' | 'ow'>, i: number) =>
  divRtn(size + 2 * b.p[i] - (b.d[i] * (b.k[i] - 1) + 1), b.s[i]) + 1;

/** The argument checks both ops share, in PyTorch's order for `op`. */
function checkGeometry(op: 'im2col' | 'col2im', a: BoundArgs) {
  const [k, d, p, s] = ['kernel_size', 'dilation', 'padding', 'stride'].map((n) => a[n] as number[]);
  const fail = (what: string, v: number[], rule: string, names: string) => {
    const [hn, wn] = names.split(' ');
    return new InvalidArgumentError(`${what} should be ${rule}, but got ${hn}: ${v[0]} ${wn}: ${v[1]}`, {
      op,
      arg: what,
      got: v,
      expected: rule,
    });
  };
  const checks = {
    k: () => {
      if (k[0] <= 0 || k[1] <= 0)
        throw fail('kernel size', k, 'greater than zero', 'kernel_height kernel_width');
    },
    d: () => {
      if (d[0] <= 0 || d[1] <= 0)
        throw fail('dilation', d, 'greater than zero', 'dilation_height dilation_width');
    },
    p: () => {
      if (p[0] < 0 || p[1] < 0) throw fail('padding', p, 'non-negative', 'pad_height pad_width');
    },
    s: () => {
      if (s[0] <= 0 || s[1] <= 0) throw fail('stride', s, 'greater than zero', 'stride_height stride_width');
    },
  };
  for (const c of op === 'im2col' ? 'kdps' : 'ksdp') checks[c as keyof typeof checks]();
  return { k, d, p, s };
}

function checkFloating(x: Tensor, kernel: string, op: string): Tensor {
  const kind = DTYPE_INFO[x.dtype].kind;
  if (kind !== 'float' && kind !== 'complex') throw notImplementedFor(kernel, x.dtype, op, 'self');
  return x;
}

function im2colPlan(a: BoundArgs): { blocks: Blocks; shape: number[] } {
  const g = checkGeometry('im2col', a);
  const x = a.self as Tensor;
  const nd = x.dim();
  if (nd < 3)
    throw new DimOutOfRangeError(
      `Dimension out of range (expected to be in range of [${-Math.max(nd, 1)}, ${Math.max(nd, 1) - 1}], but got ${nd === 2 ? 2 : 1})`,
      { op: 'im2col', arg: 'self', got: nd, expected: '3 or 4 dims' },
    );
  const s = x.shape;
  const ok = nd === 3 ? s.every((n) => n !== 0) : nd === 4 && s.slice(1).every((n) => n !== 0);
  if (!ok)
    throw new ShapeMismatchError(
      `Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: [${s.join(', ')}]`,
      { op: 'im2col', arg: 'self', got: [...s], expected: '[C, H, W] or [N, C, H, W]' },
    );
  const [c, h, w] = s.slice(nd - 3);
  const [oh, ow] = [count(h, g, 0), count(w, g, 1)];
  if (oh < 1 || ow < 1)
    throw new ShapeMismatchError(
      // PyTorch's message repeats the height.
      `Given input with spatial size (${h}, ${h}), kernel_size=${pair(g.k)}, dilation=${pair(g.d)}, padding=${pair(g.p)}, calculated shape of the array of sliding blocks as (${oh}, ${ow}), but its components must be at least one.`,
      { op: 'im2col', arg: 'self', got: [oh, ow], expected: 'at least one block each way' },
    );
  const cols = [c * g.k[0] * g.k[1], oh * ow];
  return { blocks: { ...g, h, w, oh, ow }, shape: nd === 4 ? [s[0], ...cols] : cols };
}

function col2imPlan(a: BoundArgs): { blocks: Blocks; shape: number[] } {
  const g = checkGeometry('col2im', a);
  const x = a.self as Tensor;
  const [h, w] = a.output_size as number[];
  const nd = x.dim();
  const s = x.shape;
  if (!((nd === 2 && s[0] !== 0 && s[1] !== 0) || (nd === 3 && s[1] !== 0 && s[2] !== 0)))
    throw new ShapeMismatchError(
      `Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: [${s.join(', ')}]`,
      { op: 'col2im', arg: 'self', got: [...s], expected: '[C kh kw, L] or [N, C kh kw, L]' },
    );
  const [planes, length] = s.slice(nd - 2);
  const kk = g.k[0] * g.k[1];
  if (planes % kk !== 0)
    throw new ShapeMismatchError(
      `Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=${planes} and kernel_size=${pair(g.k)}.`,
      { op: 'col2im', arg: 'self', got: planes, expected: `a multiple of ${kk}` },
    );
  const [oh, ow] = [count(h, g, 0), count(w, g, 1)];
  const given = `Given output_size=${pair([h, w])}, kernel_size=${pair(g.k)}, dilation=${pair(g.d)}, padding=${pair(g.p)}, stride=${pair(g.s)}`;
  if (length !== oh * ow)
    throw new ShapeMismatchError(
      `${given}, expected size of input's dimension 2 to match the calculated number of sliding blocks ${oh} * ${ow} = ${oh * ow}, but got input.size(2)=${length}.`,
      { op: 'col2im', arg: 'self', got: length, expected: oh * ow },
    );
  if (oh < 1 || ow < 1)
    throw new ShapeMismatchError(
      `${given}, calculated shape of the array of sliding blocks as (${oh}, ${ow}), which is too small (non-positive)`,
      { op: 'col2im', arg: 'output_size', got: [oh, ow], expected: 'at least one block each way' },
    );
  const image = [planes / kk, h, w];
  return { blocks: { ...g, h, w, oh, ow }, shape: nd === 3 ? [s[0], ...image] : image };
}

/** Strides with a batch dim of stride 0 added to an unbatched operand. */
const batched = (x: Tensor, rank: number) => (x.dim() === rank ? [...x.strides] : [0, ...x.strides]);

/**
 * Visits every (image element, column element) pair of the windows in PyTorch's col2im order: per channel and
 * kernel offset, per window row and column; `skip` gets the column elements that fall in the padding.
 */
function forEachWindow(
  image: Tensor,
  cols: Tensor,
  b: Blocks,
  visit: (img: number, col: number) => void,
  skip?: (col: number) => void,
): void {
  const [iN, iC, iH, iW] = batched(image, 4);
  const [cN, cR, cL] = batched(cols, 3);
  const n = image.dim() === 4 ? image.shape[0] : 1;
  const c = image.shape[image.dim() - 3];
  const [kh, kw] = b.k;
  for (let bn = 0; bn < n; bn++)
    for (let ch = 0; ch < c; ch++)
      for (let ki = 0; ki < kh; ki++)
        for (let kj = 0; kj < kw; kj++) {
          const row = cols.storageOffset + bn * cN + ((ch * kh + ki) * kw + kj) * cR;
          const plane = image.storageOffset + bn * iN + ch * iC;
          for (let y = 0; y < b.oh; y++) {
            const ih = y * b.s[0] - b.p[0] + ki * b.d[0];
            for (let x = 0; x < b.ow; x++) {
              const iw = x * b.s[1] - b.p[1] + kj * b.d[1];
              const col = row + (y * b.ow + x) * cL;
              if (ih >= 0 && ih < b.h && iw >= 0 && iw < b.w) visit(plane + ih * iH + iw * iW, col);
              else skip?.(col);
            }
          }
        }
}

function im2colCpu(x: Tensor, out: Tensor, b: Blocks): void {
  const copy = elementCopier(x.dtype);
  const zero = zeroWriter(x.dtype);
  const [od, xd] = [out.storage.data!, x.storage.data!];
  forEachWindow(
    x,
    out,
    b,
    (img, col) => copy(od, col, xd, img),
    (col) => zero(od, col),
  );
}

/** Sums into the output in its own dtype (each add rounded, as PyTorch's scalar_t kernel). */
function col2imCpu(cols: Tensor, out: Tensor, b: Blocks): void {
  const [od, cd] = [out.storage.data!, cols.storage.data!];
  t('zero_', [out]);
  if (DTYPE_INFO[out.dtype].kind === 'complex') {
    forEachWindow(out, cols, b, (img, col) => {
      od[2 * img] = (od[2 * img] as number) + (cd[2 * col] as number);
      od[2 * img + 1] = (od[2 * img + 1] as number) + (cd[2 * col + 1] as number);
    });
    return;
  }
  const [read, write] = [numberReader(out.dtype), numberWriter(out.dtype)];
  forEachWindow(out, cols, b, (img, col) => write(od, img, read(od, img) + read(cd, col)));
}

const GEOMETRY = 'int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride';
const spec = (shape: number[], x: Tensor): OutSpec => ({
  shape,
  dtype: x.dtype,
  strides: contiguousStrides(shape),
});
const geometryOf = (a: BoundArgs) => [a.kernel_size, a.dilation, a.padding, a.stride];

/** The op and its out= overload, whose out must have the input's dtype (the kernels check it as PyTorch's do). */
function defineBlocks(
  schema: string,
  meta: (a: BoundArgs) => OutSpec,
  impl: { cpu: OutImpl; webgpu: OutImpl },
): void {
  const tags = { family: 'shape' } as const;
  const sameType = (op: string, result: DType, out: DType) => {
    if (out !== result)
      throw new ResultTypeError(
        `expected scalar type ${DTYPE_INFO[result].torchName} but found ${DTYPE_INFO[out].torchName}`,
        { op, arg: 'out', got: out, expected: result },
      );
  };
  defineStructured({ schema, tags, meta, impl, out: true, outRule: sameType });
}

export function registerUnfold(): void {
  const tags = { family: 'shape' } as const;
  defineBlocks(
    `im2col(Tensor self, ${GEOMETRY}) -> Tensor`,
    (a) => spec(im2colPlan(a).shape, a.self as Tensor),
    {
      cpu: (a, out) =>
        im2colCpu(checkFloating(a.self as Tensor, 'im2col_out_cpu', 'im2col'), out, im2colPlan(a).blocks),
      webgpu: (a, out) =>
        im2colGPU(checkFloating(a.self as Tensor, 'im2col_out_cpu', 'im2col'), out, im2colPlan(a).blocks),
    },
  );
  defineBlocks(
    `col2im(Tensor self, int[2] output_size, ${GEOMETRY}) -> Tensor`,
    (a) => spec(col2imPlan(a).shape, a.self as Tensor),
    {
      cpu: (a, out) =>
        col2imCpu(checkFloating(a.self as Tensor, 'col2im_out_cpu', 'col2im'), out, col2imPlan(a).blocks),
      webgpu: (a, out) =>
        col2imGPU(checkFloating(a.self as Tensor, 'col2im_out_cpu', 'col2im'), out, col2imPlan(a).blocks),
    },
  );
  defineDerivative('im2col', {
    saves: [],
    formula: (c) => [t('col2im', [c.grad, c.shapes.self.slice(-2), ...geometryOf(c.args)])],
  });
  defineDerivative('col2im', { saves: [], formula: (c) => [t('im2col', [c.grad, ...geometryOf(c.args)])] });
  // F.unfold / F.fold: Python functions whose defaults aten's schemas lack (_pair turns one int into two).
  const python = { ...tags, decomposed: true, pythonOnly: true } as const;
  defineOp({
    schema: `_functional_unfold(Tensor input, int[2] kernel_size, int[2] dilation=1, int[2] padding=0, int[2] stride=1) -> Tensor`,
    tags: python,
    composite: (a) => t('im2col', [a.input, a.kernel_size, a.dilation, a.padding, a.stride]),
  });
  defineOp({
    schema: `_functional_fold(Tensor input, int[2] output_size, int[2] kernel_size, int[2] dilation=1, int[2] padding=0, int[2] stride=1) -> Tensor`,
    tags: python,
    composite: (a) => t('col2im', [a.input, a.output_size, a.kernel_size, a.dilation, a.padding, a.stride]),
  });
  operatorTable.alias('nn.functional.unfold', '_functional_unfold');
  operatorTable.alias('nn.functional.fold', '_functional_fold');
}
