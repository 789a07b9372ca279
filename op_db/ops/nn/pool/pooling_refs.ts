/**
 * float64 references for pooling and unpooling, from the definitions in PyTorch's docs: an output element is the
 * maximum (or the average) of the input elements its window covers, the window of output o along a dim being
 * o * stride - padding + j * dilation for j < kernel_size; max_unpool writes each value at its flat index.
 */
import { type RefTensor, refTensor } from '../../../refs/tensor.ts';
import type { RefSample } from '../../../types.ts';

const prod = (v: readonly number[]) => v.reduce((p, n) => p * n, 1);
const spread = (v: unknown, nd: number, dflt: number[]): number[] => {
  if (v === undefined || v === null) return dflt;
  const list = Array.isArray(v) ? (v as number[]) : [v as number];
  return list.length === 1 ? new Array(nd).fill(list[0]) : list;
};

/** F's positional or keyword argument `name`, at position `i` of args (after the input). */
const argOf = (s: RefSample, names: readonly string[], name: string): unknown => {
  const i = names.indexOf(name);
  return i < s.args.length ? s.args[i] : s.kwargs[name];
};

/** Every multi-index below `sizes`, in row-major order. */
function* indices(sizes: readonly number[]): Generator<number[]> {
  const n = prod(sizes);
  for (let flat = 0; flat < n; flat++) {
    const at = new Array<number>(sizes.length);
    let r = flat;
    for (let d = sizes.length - 1; d >= 0; d--) {
      at[d] = r % sizes[d];
      r = Math.floor(r / sizes[d]);
    }
    yield at;
  }
}

interface Params {
  readonly k: number[];
  readonly s: number[];
  readonly p: number[];
  readonly d: number[];
  readonly ceil: boolean;
}

function outSize(n: number, k: number, s: number, p: number, d: number, ceil: boolean): number {
  const span = n + 2 * p - d * (k - 1) - 1;
  let out = (ceil ? Math.ceil(span / s) : Math.floor(span / s)) + 1;
  // The last window has to start inside the input or the left padding.
  if (ceil && (out - 1) * s >= n + p) out--;
  return out;
}

/** Runs `visit(plane, outIndex, windowCoords)` for each output element; returns the output shape. */
function pool(
  x: RefTensor,
  nd: number,
  q: Params,
  visit: (plane: number, o: number[], window: number[][]) => void,
): number[] {
  const lead = x.shape.slice(0, x.shape.length - nd);
  const size = x.shape.slice(x.shape.length - nd);
  const out = size.map((n, i) => outSize(n, q.k[i], q.s[i], q.p[i], q.d[i], q.ceil));
  for (let plane = 0; plane < prod(lead); plane++)
    for (const o of indices(out)) {
      const window = [...indices(q.k)].map((j) => j.map((jj, i) => o[i] * q.s[i] - q.p[i] + jj * q.d[i]));
      visit(plane, o, window);
    }
  return [...lead, ...out];
}

const flatIn = (c: number[], size: readonly number[]) => c.reduce((acc, v, i) => acc * size[i] + v, 0);

export const maxPoolRef =
  (nd: number) =>
  (s: RefSample): RefTensor[] | RefTensor => {
    const names = ['kernel_size', 'stride', 'padding', 'dilation', 'ceil_mode', 'return_indices'];
    const k = spread(argOf(s, names, 'kernel_size'), nd, []);
    const q: Params = {
      k,
      s: spread(argOf(s, names, 'stride'), nd, k),
      p: spread(argOf(s, names, 'padding'), nd, new Array(nd).fill(0)),
      d: spread(argOf(s, names, 'dilation'), nd, new Array(nd).fill(1)),
      ceil: Boolean(argOf(s, names, 'ceil_mode')),
    };
    const x = s.input;
    const size = x.shape.slice(x.shape.length - nd);
    const planeSize = prod(size);
    const values: number[] = [];
    const where: number[] = [];
    const shape = pool(x, nd, q, (plane, _o, window) => {
      const inside = window.filter((c) => c.every((v, i) => v >= 0 && v < size[i]));
      const vals = inside.map((c) => x.re[plane * planeSize + flatIn(c, size)]);
      // NaN propagates (PyTorch reports the window's last NaN); among equal maxima the first is reported.
      const nan = vals.map((v, i) => (Number.isNaN(v) ? i : -1)).filter((i) => i >= 0);
      const best = nan.length ? nan[nan.length - 1] : vals.indexOf(Math.max(...vals));
      values.push(vals[best]);
      where.push(flatIn(inside[best], size));
    });
    const v = refTensor(shape, x.dtype, values);
    return argOf(s, names, 'return_indices') ? [v, refTensor(shape, 'int64', where)] : v;
  };

export const avgPoolRef = (nd: number) => (s: RefSample) => {
  const names = ['kernel_size', 'stride', 'padding', 'ceil_mode', 'count_include_pad', 'divisor_override'];
  const k = spread(argOf(s, names, 'kernel_size'), nd, []);
  const q: Params = {
    k,
    s: spread(argOf(s, names, 'stride'), nd, k),
    p: spread(argOf(s, names, 'padding'), nd, new Array(nd).fill(0)),
    d: new Array(nd).fill(1),
    ceil: Boolean(argOf(s, names, 'ceil_mode')),
  };
  const includePad = argOf(s, names, 'count_include_pad') ?? true;
  const divisor = (argOf(s, names, 'divisor_override') as number | null | undefined) ?? null;
  const x = s.input;
  const size = x.shape.slice(x.shape.length - nd);
  const values: number[] = [];
  const shape = pool(x, nd, q, (plane, _o, window) => {
    // The padded input spans [-padding, size + padding): window elements past it count for nothing.
    const padded = window.filter((c) => c.every((v, i) => v >= -q.p[i] && v < size[i] + q.p[i]));
    const inside = window.filter((c) => c.every((v, i) => v >= 0 && v < size[i]));
    const sum = inside.reduce((acc, c) => acc + x.re[plane * prod(size) + flatIn(c, size)], 0);
    const div = divisor ?? (includePad ? padded.length : inside.length);
    const avg = sum / div;
    values.push(x.dtype === 'int64' ? Math.trunc(avg) : avg);
  });
  return refTensor(shape, x.dtype, values);
};

export const maxUnpoolRef = (nd: number) => (s: RefSample) => {
  const names = ['indices', 'kernel_size', 'stride', 'padding', 'output_size'];
  const x = s.input;
  const idx = argOf(s, names, 'indices') as RefTensor;
  const k = spread(argOf(s, names, 'kernel_size'), nd, []);
  const st = spread(argOf(s, names, 'stride'), nd, k);
  const p = spread(argOf(s, names, 'padding'), nd, new Array(nd).fill(0));
  const given = argOf(s, names, 'output_size') as number[] | null | undefined;
  const lead = x.shape.slice(0, x.shape.length - nd);
  const size = given
    ? given.slice(given.length - nd)
    : k.map((kk, i) => (x.shape[x.shape.length - nd + i] - 1) * st[i] + kk - 2 * p[i]);
  const per = prod(x.shape.slice(x.shape.length - nd));
  const out = new Float64Array(prod(lead) * prod(size));
  for (let plane = 0; plane < prod(lead); plane++)
    for (let j = 0; j < per; j++) out[plane * prod(size) + idx.re[plane * per + j]] = x.re[plane * per + j];
  return refTensor([...lead, ...size], x.dtype, out);
};

/** aten::max_unpool2d(self, indices, output_size): each value written at its flat index in its output plane. */
export const maxUnpoolAtenRef = (nd: number) => (s: RefSample) => {
  const x = s.input;
  const idx = s.args[0] as RefTensor;
  const size = (s.args[1] as number[]).slice(-nd);
  const lead = x.shape.slice(0, x.shape.length - nd);
  const per = prod(x.shape.slice(x.shape.length - nd));
  const out = new Float64Array(prod(lead) * prod(size));
  for (let plane = 0; plane < prod(lead); plane++)
    for (let j = 0; j < per; j++) out[plane * prod(size) + idx.re[plane * per + j]] = x.re[plane * per + j];
  return refTensor([...lead, ...size], x.dtype, out);
};
