/**
 * The pooling ops around the 2-d / 3-d kernels (pooling.ts), written in runtime ops as aten and
 * torch.nn.functional write them: max_pool1d / max_pool1d_with_indices / avg_pool1d (the 2-d kernel over an
 * unsqueezed dim), max_pool2d / max_pool3d (the values of *_with_indices), F.max_poolNd's Python signature
 * (return_indices picks *_with_indices), and max_unpool: aten's max_unpool2d / max_unpool3d (a scatter into
 * zeros, whose derivative is a gather) behind F.max_unpoolNd's Python output-size rule.
 */
import { isGradEnabled } from '../../autograd/index.ts';
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  IndexOutOfRangeError,
  InvalidArgumentError,
  type Tensor,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, callOp, operatorTable } from '../../dispatch/index.ts';
import { notImplementedFor, callTensor as t } from '../op_helpers.ts';
import { defineOp } from '../structured.ts';
import { indexValues } from './embedding.ts';
import { check1d, check1dInput, pooledSize } from './pool_geometry.ts';

const decomposed = { family: 'nn', decomposed: true } as const;
const python = { ...decomposed, pythonOnly: true } as const;
const prod = (v: readonly number[]) => v.reduce((p, n) => p * n, 1);
const callTensors = (name: string, args: unknown[]) => callOp(name, args, {}) as Tensor[];
const fmt = (s: readonly number[]) => `[${s.join(', ')}]`;
const invalid = (op: string, arg: string, message: string, got: unknown, expected: string) =>
  new InvalidArgumentError(message, { op, arg, got, expected });

/** check_max_pool1d: the no-indices path's own checks and messages; returns the output width. */
function checkMaxPool1d(x: Tensor, a: BoundArgs): number {
  const op = 'max_pool1d';
  const [k, s, p, d] = ['kernel_size', 'stride', 'padding', 'dilation'].map((n) => a[n] as number[]);
  const ok =
    (x.ndim === 2 && x.shape[0] !== 0 && x.shape[1] !== 0) ||
    (x.ndim === 3 && x.shape[1] !== 0 && x.shape[2] !== 0);
  if (!ok)
    throw invalid(
      op,
      'self',
      `max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:${fmt(x.shape)}`,
      x.shape,
      '2-D or 3-D',
    );
  const size = (arg: string, v: number[], what: string, okLen: boolean) => {
    if (!okLen)
      throw invalid(
        op,
        arg,
        `max_pool1d() ${arg} must be ${what} of size 1 but got size ${v.length}`,
        v,
        'one int',
      );
  };
  size('kernel_size', k, 'an int, list of ints or tuple of ints', k.length === 1);
  size('stride', s, 'None, an int, list of ints, or tuple of ints', s.length <= 1);
  size('padding', p, 'an int, list of ints, or tuple of ints', p.length === 1);
  size('dilation', d, 'an int, list of ints or tuple of ints', d.length === 1);
  const stride = s.length ? s[0] : k[0];
  const check = (cond: boolean, arg: string, message: string, got: number) => {
    if (!cond) throw invalid(op, arg, `max_pool1d() ${message}`, got, 'a valid value');
  };
  check(k[0] > 0, 'kernel_size', `kernel_size must be greater than zero, but got ${k[0]}`, k[0]);
  check(stride > 0, 'stride', `stride must be greater than zero, but got ${stride}`, stride);
  check(p[0] >= 0, 'padding', `padding must be non-negative, but got ${p[0]}`, p[0]);
  check(
    p[0] <= Math.trunc(k[0] / 2),
    'padding',
    `padding should be at most half of kernel size, but got padding=${p[0]} and kernel_size=${k[0]}`,
    p[0],
  );
  check(d[0] > 0, 'dilation', `dilation must be greater than zero, but got ${d[0]}`, d[0]);
  const ow = pooledSize(op, x.shape[x.ndim - 1], k[0], p[0], stride, d[0], a.ceil_mode as boolean);
  check(ow >= 0, 'self', `Invalid computed output size: ${ow}`, ow);
  return ow;
}

/** max_pool1d_with_indices / avg_pool1d: the 2-d kernel over (1, L), on self.unsqueeze(-2). */
function pool1d(
  op: string,
  a: BoundArgs,
  call: (x: Tensor, k: number, s: number, p: number) => Tensor | Tensor[],
) {
  const x = a.self as Tensor;
  const k = a.kernel_size as number[];
  const s = (a.stride as number[]).length ? (a.stride as number[]) : k;
  check1dInput(op, x.ndim);
  check1d(op, 'kernel_size', k);
  check1d(op, 'stride', s);
  check1d(op, 'padding', a.padding as number[]);
  if (a.dilation !== undefined) check1d(op, 'dilation', a.dilation as number[]);
  const r = call(t('unsqueeze', [x, -2]), k[0], s[0], (a.padding as number[])[0]);
  return Array.isArray(r) ? r.map((y) => t('squeeze', [y, -2])) : t('squeeze', [r, -2]);
}

const maxPool1dWithIndices = (a: BoundArgs) =>
  pool1d('max_pool1d', a, (x, k, s, p) =>
    callTensors('max_pool2d_with_indices', [
      x,
      [1, k],
      [1, s],
      [0, p],
      [1, (a.dilation as number[])[0]],
      a.ceil_mode,
    ]),
  );

/** aten::max_pool1d: check_max_pool1d, then the values of max_pool1d_with_indices (an empty width allowed). */
function maxPool1d(a: BoundArgs): Tensor {
  const x = a.self as Tensor;
  const ow = checkMaxPool1d(x, a);
  const grad = x.requiresGrad && isGradEnabled();
  if (!grad && DTYPE_INFO[x.dtype].kind !== 'float')
    throw notImplementedFor('max_pool1d_impl', x.dtype, 'max_pool1d', 'self', 'a floating dtype');
  // Without grad, aten's max_pool1d_impl returns an empty width where the indices kernel would refuse it.
  if (ow === 0 && !grad)
    return t('clone', [t('narrow', [x, -1, 0, 0])], { memory_format: 'contiguous_format' });
  const args = ['kernel_size', 'stride', 'padding', 'dilation', 'ceil_mode'].map((n) => a[n]);
  return callTensors('max_pool1d_with_indices', [x, ...args])[0];
}

const POOL_PARAMS = (nd: number, max: boolean) => {
  const i = `int[${nd}]`;
  const pad = nd === 1 ? '[0]' : '0';
  return max
    ? `Tensor self, ${i} kernel_size, ${i} stride=[], ${i} padding=${pad}, ${i} dilation=${nd === 1 ? '[1]' : '1'}, bool ceil_mode=False`
    : `Tensor self, ${i} kernel_size, ${i} stride=[], ${i} padding=${pad}, bool ceil_mode=False, bool count_include_pad=True`;
};

/** F.max_poolNd: stride None is the kernel size; return_indices picks max_poolNd_with_indices. */
function functionalMaxPool(nd: number, a: BoundArgs): Tensor | Tensor[] {
  const args = [a.input, a.kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode];
  if (a.return_indices) return callTensors(`max_pool${nd}d_with_indices`, args);
  return callOp(`max_pool${nd}d`, args, {}) as Tensor;
}

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

/** aten::max_unpool2d / max_unpool3d: each input value written at its flat index of an output plane of zeros. */
function maxUnpool(nd: number, a: BoundArgs): Tensor {
  const op = `max_unpool${nd}d`;
  const x = a.self as Tensor;
  const indices = a.indices as Tensor;
  const outSize = a.output_size as number[];
  checkUnpool(op, nd, x, indices, outSize, a);
  if (DTYPE_INFO[x.dtype].kind !== 'float') throw notImplementedFor(op, x.dtype, op);
  const lead = x.shape.slice(0, x.ndim - nd);
  const planes = prod(lead);
  const plane = prod(outSize);
  // Checked before writing (aten reports the first bad index of its loop); a meta index has no values.
  if (indices.device === 'cpu')
    for (const v of indexValues(indices))
      if (v < 0 || v >= plane)
        throw new IndexOutOfRangeError(
          `Found an invalid max index: ${v} (output volumes are of size ${outSize.join('x')}`,
          {
            op,
            arg: 'indices',
            got: v,
            expected: `in [0, ${plane - 1}]`,
          },
        );
  const per = prod(x.shape.slice(x.ndim - nd));
  const src = t('reshape', [x, [planes, per]]);
  // Zeros made from the input (not a factory naming a device), so that compile traces them.
  const zeros = t('zeros_like', [t('expand', [t('narrow', [src, 1, 0, 1]), [planes, plane]])], {
    memory_format: 'contiguous_format',
  });
  const out = t('scatter', [zeros, 1, t('reshape', [indices, [planes, per]]), src]);
  return t('reshape', [out, [...lead, ...outSize]]);
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

export const POOLING_API = {
  max_pool1d: 'function',
  max_pool2d: 'function',
  max_pool3d: 'function',
  max_pool1d_with_indices: 'function',
  avg_pool1d: 'function',
  max_unpool2d: 'function',
  max_unpool3d: 'function',
} as const satisfies ApiDecl;

export function registerPoolingFunctional(): void {
  defineOp({
    schema: `max_pool1d_with_indices(${POOL_PARAMS(1, true)}) -> (Tensor, Tensor)`,
    tags: decomposed,
    composite: maxPool1dWithIndices,
  });
  defineOp({
    schema: `max_pool1d(${POOL_PARAMS(1, true)}) -> Tensor`,
    tags: decomposed,
    composite: maxPool1d,
  });
  for (const nd of [2, 3])
    defineOp({
      schema: `max_pool${nd}d(${POOL_PARAMS(nd, true)}) -> Tensor`,
      tags: decomposed,
      composite: (a) =>
        callTensors(`max_pool${nd}d_with_indices`, [
          a.self,
          a.kernel_size,
          a.stride,
          a.padding,
          a.dilation,
          a.ceil_mode,
        ])[0],
    });
  defineOp({
    schema: `avg_pool1d(${POOL_PARAMS(1, false)}) -> Tensor`,
    tags: decomposed,
    composite: (a) =>
      pool1d('avg_pool1d', a, (x, k, s, p) =>
        t('avg_pool2d', [x, [1, k], [1, s], [0, p], a.ceil_mode, a.count_include_pad]),
      ),
  });
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
  for (const nd of [1, 2, 3]) {
    const i = `int[${nd}]`;
    defineOp({
      schema: `_functional_max_pool${nd}d(Tensor input, ${i} kernel_size, ${i}? stride=None, ${i} padding=0, ${i} dilation=1, bool ceil_mode=False, bool return_indices=False) -> Tensor`,
      tags: python,
      composite: (a) => functionalMaxPool(nd, a),
    });
    defineOp({
      schema: `_functional_max_unpool${nd}d(Tensor input, Tensor indices, ${i} kernel_size, ${i}? stride=None, ${i} padding=0, ${i}? output_size=None) -> Tensor`,
      tags: python,
      composite: (a) => functionalUnpool(nd, a),
    });
    operatorTable.alias(`nn.functional.max_pool${nd}d`, `_functional_max_pool${nd}d`);
    operatorTable.alias(`nn.functional.max_unpool${nd}d`, `_functional_max_unpool${nd}d`);
  }
  for (const nd of [1, 2, 3]) operatorTable.alias(`nn.functional.avg_pool${nd}d`, `avg_pool${nd}d`);
  operatorTable.declare(POOLING_API);
}
