/**
 * The pooling ops around the 2-d / 3-d kernels (pooling.ts), written in runtime ops as aten and
 * torch.nn.functional write them: max_pool1d / max_pool1d_with_indices / avg_pool1d (the 2-d kernel over an
 * unsqueezed dim), max_pool2d / max_pool3d (the values of *_with_indices), F.max_poolNd's Python signature
 * (return_indices picks *_with_indices).
 */
import { isGradEnabled } from '../../../autograd/index.ts';
import { DTYPE_INFO, InvalidArgumentError, type Tensor } from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, callOp, operatorTable } from '../../../dispatch/index.ts';
import { notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import { check1d, check1dInput, pooledSize } from './geometry.ts';

const decomposed = { family: 'nn', decomposed: true } as const;
const python = { ...decomposed, pythonOnly: true } as const;
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

export const POOLING_API = {
  max_pool1d: 'function',
  max_pool2d: 'function',
  max_pool3d: 'function',
  max_pool1d_with_indices: 'function',
  avg_pool1d: 'function',
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
  for (const nd of [1, 2, 3]) {
    const i = `int[${nd}]`;
    // Python's boolean_dispatch: one Tensor, or (values, indices) with return_indices=True.
    defineOp({
      schema: `_functional_max_pool${nd}d(Tensor input, ${i} kernel_size, ${i}? stride=None, ${i} padding=0, ${i} dilation=1, bool ceil_mode=False, bool return_indices=False) -> Tensor`,
      tags: python,
      composite: (a) => functionalMaxPool(nd, a),
    });
    operatorTable.alias(`nn.functional.max_pool${nd}d`, `_functional_max_pool${nd}d`);
  }
  for (const nd of [1, 2, 3]) operatorTable.alias(`nn.functional.avg_pool${nd}d`, `avg_pool${nd}d`);
  operatorTable.declare(POOLING_API);
}
