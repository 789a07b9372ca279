/**
 * max_unpool: aten's max_unpool2d / max_unpool3d (each input value written at its flat index of an output plane of
 * zeros: a scatter, whose derivative is a gather, as PyTorch's), behind F.max_unpoolNd's Python layer, which
 * computes the output size (_unpool_output_size) and runs 1-d through max_unpool2d on an unsqueezed last dim.
 */

import { numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  IndexOutOfRangeError,
  InvalidArgumentError,
  type Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { defineOut, indexReader, notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import { indexValues } from '../embedding/index.ts';
import { frameStrides } from './geometry.ts';

const decomposed = { family: 'nn', decomposed: true } as const;
const prod = (v: readonly number[]) => v.reduce((p, n) => p * n, 1);
const fmt = (s: readonly number[]) => `[${s.join(', ')}]`;
const invalid = (op: string, arg: string, message: string, got: unknown, expected: string) =>
  new InvalidArgumentError(message, { op, arg, got, expected });

/** F's _unpool_output_size: the default size, or output_size (optionally with N, C) within a stride of it. */
function unpoolOutputSize(
  x: Tensor,
  k: number[],
  s: number[],
  p: number[],
  given: number[] | null,
): number[] {
  const nd = k.length;
  const dflt = k.map((kd, d) => (x.shape[x.ndim - nd + d] - 1) * s[d] + kd - 2 * p[d]);
  if (given === null) return dflt;
  const size = given.length === nd + 2 ? given.slice(2) : given;
  if (size.length !== nd)
    throw invalid(
      'max_unpool',
      'output_size',
      `output_size should be a sequence containing ${nd} or ${nd + 2} elements, but it has a length of '${size.length}'`,
      given,
      `${nd} or ${nd + 2} elements`,
    );
  for (let d = 0; d < nd; d++) {
    const [lo, hi] = [dflt[d] - s[d], dflt[d] + s[d]];
    if (!(lo < size[d] && size[d] < hi))
      throw invalid(
        'max_unpool',
        'output_size',
        `invalid output_size "${fmt(given)}" (dim ${d} must be between ${lo} and ${hi})`,
        given,
        `in (${lo}, ${hi})`,
      );
  }
  return size;
}

/** max_unpooling{2,3}d's checks, in aten's order. */
function checkUnpool(
  op: string,
  nd: number,
  x: Tensor,
  indices: Tensor,
  outSize: number[],
  a: BoundArgs,
): void {
  const three = nd === 3;
  if (indices.dtype !== 'int64')
    throw new DTypeUnsupportedError(
      `elements in indices should be type int64${three ? '' : ` but got: ${DTYPE_INFO[indices.dtype].torchName}`}`,
      {
        op,
        arg: 'indices',
        got: indices.dtype,
        expected: 'int64',
      },
    );
  const dims = three ? '4d or 5d' : '3d or 4d';
  const okDims = x.ndim === nd + 1 || x.ndim === nd + 2;
  const words = three ? 'three elements (depth, height, width)' : 'two elements (height, width)';
  if (!three && outSize.length !== 2)
    throw invalid(
      op,
      'output_size',
      `There should be exactly ${words} in output_size, but got ${outSize.length} elements.`,
      outSize,
      '2 elements',
    );
  if (!okDims)
    throw invalid(
      op,
      'self',
      `Input to max_unpooling${nd}d should be a ${dims} Tensor, but got a tensor with ${x.ndim} dimensions.`,
      x.ndim,
      dims,
    );
  if (three) {
    for (const [arg, v] of [
      ['output_size', outSize],
      ['stride', a.stride],
      ['padding', a.padding],
    ] as const)
      if ((v as number[]).length !== 3)
        throw invalid(
          op,
          arg,
          `There should be exactly ${words} in ${arg}, but got${arg === 'output_size' ? '' : ':'} ${(v as number[]).length} elements.`,
          v,
          '3 elements',
        );
  }
  if (fmt(x.shape) !== fmt(indices.shape))
    throw invalid(
      op,
      'indices',
      `Expected shape of indices to be same as that of the input tensor (${fmt(x.shape)}) but got indices tensor with shape: ${fmt(indices.shape)}`,
      indices.shape,
      fmt(x.shape),
    );
  for (let i = x.ndim === nd + 2 ? 1 : 0; i < x.ndim; i++)
    if (x.shape[i] === 0)
      throw invalid(
        op,
        'self',
        `max_unpooling${nd}d_forward_out_cpu(): Expected input to have non-zero size for non-batch dimensions, but got ${fmt(x.shape)} with dimension ${i} being empty.`,
        x.shape,
        'non-empty non-batch dims',
      );
  if (three && (a.stride as number[]).some((v) => v <= 0))
    throw invalid(
      op,
      'stride',
      `strides should be greater than zero, but got stride: ${fmt(a.stride as number[])}`,
      a.stride,
      '> 0',
    );
}

/** max_unpool's checks, values included (before anything is written); the output's shape. */
function checkedUnpool(nd: number, a: BoundArgs): { x: Tensor; indices: Tensor; shape: number[] } {
  const op = `max_unpool${nd}d`;
  const x = a.self as Tensor;
  const indices = a.indices as Tensor;
  const outSize = a.output_size as number[];
  checkUnpool(op, nd, x, indices, outSize, a);
  if (DTYPE_INFO[x.dtype].kind !== 'float') throw notImplementedFor(op, x.dtype, op);
  const plane = prod(outSize);
  // aten reports the first bad index of its loop; a meta or webgpu index is not read (a device cannot raise).
  if (indices.device === 'cpu')
    for (const v of indexValues(indices))
      if (v < 0 || v >= plane)
        throw new IndexOutOfRangeError(
          `Found an invalid max index: ${v} (output volumes are of size ${outSize.join('x')}`,
          { op, arg: 'indices', got: v, expected: `in [0, ${plane - 1}]` },
        );
  return { x, indices, shape: [...x.shape.slice(0, x.ndim - nd), ...outSize] };
}

/** aten::max_unpool2d / max_unpool3d: each input value written at its flat index of an output plane of zeros. */
function maxUnpool(nd: number, a: BoundArgs): Tensor {
  const { x, indices, shape } = checkedUnpool(nd, a);
  const planes = prod(shape.slice(0, x.ndim - nd));
  const per = prod(x.shape.slice(x.ndim - nd));
  const src = t('reshape', [x, [planes, per]]);
  // Zeros made from the input (not a factory naming a device), so that compile traces them.
  const plane = prod(shape.slice(x.ndim - nd));
  const zeros = t('zeros_like', [t('expand', [t('narrow', [src, 1, 0, 1]), [planes, plane]])], {
    memory_format: 'contiguous_format',
  });
  const out = t('scatter', [zeros, 1, t('reshape', [indices, [planes, per]]), src]);
  return t('reshape', [out, shape]);
}

/** max_unpool's out= kernel (cpu): out zeroed, then each input value stored at its index, all through strides. */
function maxUnpoolOut(nd: number) {
  return (a: BoundArgs, out: Tensor): void => {
    const x = a.self as Tensor;
    const indices = a.indices as Tensor;
    const [xs, is, os] = [x, indices, out].map((v) => frameStrides(v, nd));
    const pad = (v: readonly number[]) => [...new Array(3 - nd).fill(1), ...v];
    const lead = x.ndim === nd + 2 ? x.shape.slice(0, 2) : [1, x.shape[0]];
    const [T, H, W] = pad(out.shape.slice(out.ndim - nd));
    const inSize = pad(x.shape.slice(x.ndim - nd));
    const read = numberReader(x.dtype);
    const write = numberWriter(out.dtype);
    const idx = indexReader(indices);
    const [src, dst] = [x.storage.data!, out.storage.data!];
    for (let n = 0; n < lead[0]; n++)
      for (let c = 0; c < lead[1]; c++) {
        const ob = out.storageOffset + n * os[0] + c * os[1];
        for (let z = 0; z < T; z++)
          for (let y = 0; y < H; y++)
            for (let v = 0; v < W; v++) write(dst, ob + z * os[2] + y * os[3] + v * os[4], 0);
        const xb = x.storageOffset + n * xs[0] + c * xs[1];
        const ib = indices.storageOffset + n * is[0] + c * is[1];
        for (let z = 0; z < inSize[0]; z++)
          for (let y = 0; y < inSize[1]; y++)
            for (let v = 0; v < inSize[2]; v++) {
              const k = idx(ib + z * is[2] + y * is[3] + v * is[4]);
              const at =
                ob + Math.floor(k / (H * W)) * os[2] + (Math.floor(k / W) % H) * os[3] + (k % W) * os[4];
              write(dst, at, read(src, xb + z * xs[2] + y * xs[3] + v * xs[4]));
            }
      }
  };
}

/** F.max_unpoolNd: kernel / stride / padding spread to N ints, the output size, then aten (1-d through 2-d). */
function functionalUnpool(nd: number, a: BoundArgs): Tensor {
  const spread = (v: number[] | null, fallback: number[]) =>
    v === null ? fallback : v.length === 1 ? new Array(nd).fill(v[0]) : v;
  const k = spread(a.kernel_size as number[], []);
  const s = spread((a.stride as number[] | null) ?? null, k);
  const p = spread(a.padding as number[], []);
  const x = a.input as Tensor;
  const indices = a.indices as Tensor;
  const size = unpoolOutputSize(x, k, s, p, (a.output_size as number[] | null) ?? null);
  if (nd === 1)
    return t('squeeze', [
      t('max_unpool2d', [t('unsqueeze', [x, -1]), t('unsqueeze', [indices, -1]), [...size, 1]]),
      -1,
    ]);
  if (nd === 2) return t('max_unpool2d', [x, indices, size]);
  return t('max_unpool3d', [x, indices, size, s, p]);
}

export const UNPOOL_API = {
  max_unpool2d: 'function',
  max_unpool3d: 'function',
} as const satisfies ApiDecl;

export function registerUnpool(): void {
  defineOp({
    schema: 'max_unpool2d(Tensor self, Tensor indices, int[2] output_size) -> Tensor',
    tags: decomposed,
    composite: (a) => maxUnpool(2, a),
  });
  defineOp({
    schema:
      'max_unpool3d(Tensor self, Tensor indices, int[3] output_size, int[3] stride, int[3] padding) -> Tensor',
    tags: decomposed,
    composite: (a) => maxUnpool(3, a),
  });
  for (const [nd, params] of [
    [2, 'Tensor self, Tensor indices, int[2] output_size'],
    [3, 'Tensor self, Tensor indices, int[3] output_size, int[3] stride, int[3] padding'],
  ] as const)
    defineOut(
      `max_unpool${nd}d.out(${params}, *, Tensor(a!) out) -> Tensor(a!)`,
      { family: 'nn' },
      (a) => {
        const { x, shape } = checkedUnpool(nd, a);
        return { shape, dtype: x.dtype };
      },
      maxUnpoolOut(nd),
      // The kernel dispatches on self's dtype and reads out as that type.
      (op, result, out) => {
        if (out !== result)
          throw new DTypeUnsupportedError(
            `expected scalar type ${DTYPE_INFO[result].torchName} but found ${DTYPE_INFO[out].torchName}`,
            { op, arg: 'out', got: out, expected: result },
          );
      },
    );
  for (const nd of [1, 2, 3]) {
    const i = `int[${nd}]`;
    defineOp({
      schema: `_functional_max_unpool${nd}d(Tensor input, Tensor indices, ${i} kernel_size, ${i}? stride=None, ${i} padding=0, ${i}? output_size=None) -> Tensor`,
      tags: { ...decomposed, pythonOnly: true },
      composite: (a) => functionalUnpool(nd, a),
    });
    operatorTable.alias(`nn.functional.max_unpool${nd}d`, `_functional_max_unpool${nd}d`);
  }
  operatorTable.declare(UNPOOL_API);
}
