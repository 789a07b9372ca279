/**
 * float64 references for the convolutions, from the definitions in PyTorch's docs (direct loops over logical
 * indices, independent of the runtime's im2col / col2im kernels):
 *   conv:           out[n, g*Co + o, y] = b[g*Co + o] + sum_{c, k} x[n, g*Ci + c, y*s - p + k*d] w[g*Co + o, c, k]
 *   conv_transpose: out[n, g*Co + o, i*s - p + k*d] += x[n, g*Ci + c, i] w[g*Ci + c, o, k]  (then + b)
 * padding='same' pads floor(d (k - 1) / 2) on the left (the rest on the right), 'valid' none. Integer results
 * wrap to the dtype as the stored sum does; complex values multiply as complex numbers.
 */
import type { DType } from '../../src/runtime/index.ts';
import type { RefSample } from '../types.ts';
import { castValue, numelOf, type RefTensor } from './tensor.ts';

const INT: readonly DType[] = ['uint8', 'int8', 'int16', 'int32', 'int64'];

/** The positional and keyword arguments after input, by name, in PyTorch's order for each op. */
function argsOf(s: RefSample, transposed: boolean): Record<string, unknown> {
  const names = transposed
    ? ['weight', 'bias', 'stride', 'padding', 'output_padding', 'groups', 'dilation']
    : ['weight', 'bias', 'stride', 'padding', 'dilation', 'groups'];
  const out: Record<string, unknown> = {};
  names.forEach((n, i) => {
    out[n] = i < s.args.length ? s.args[i] : s.kwargs[n];
  });
  return out;
}

const per = (v: unknown, dims: number, dflt: number): number[] =>
  v === undefined || v === null
    ? new Array(dims).fill(dflt)
    : Array.isArray(v)
      ? v.length === 1
        ? new Array(dims).fill(v[0])
        : v
      : new Array(dims).fill(v);

/** Row-major index of a multi-index. */
const flatIndex = (idx: readonly number[], shape: readonly number[]) =>
  idx.reduce((acc, v, i) => acc * shape[i] + v, 0);

/** Every multi-index of `shape`, in row-major order. */
function* indices(shape: readonly number[]): Generator<number[]> {
  const n = numelOf(shape);
  const idx = new Array(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    yield idx;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

export function convRef(dims: number, transposed: boolean) {
  return (s: RefSample): RefTensor => {
    const a = argsOf(s, transposed);
    const w = a.weight as RefTensor;
    const bias = (a.bias as RefTensor | null | undefined) ?? null;
    const batched = s.input.shape.length === dims + 2;
    const xShape = batched ? s.input.shape : [1, ...s.input.shape];
    const x = s.input;
    const groups = (a.groups as number | undefined) ?? 1;
    const stride = per(a.stride, dims, 1);
    const dilation = per(a.dilation, dims, 1);
    const kSize = w.shape.slice(2);
    const inSize = xShape.slice(2);
    let left: number[];
    if (a.padding === 'same') left = dilation.map((d, i) => Math.floor((d * (kSize[i] - 1)) / 2));
    else if (a.padding === 'valid') left = new Array(dims).fill(0);
    else left = per(a.padding, dims, 0);
    const outPad = per(a.output_padding, dims, 0);
    const outSize = inSize.map((n, i) => {
      const span = dilation[i] * (kSize[i] - 1);
      if (transposed) return (n - 1) * stride[i] - 2 * left[i] + span + outPad[i] + 1;
      if (a.padding === 'same') return n;
      return Math.floor((n + 2 * left[i] - span - 1) / stride[i]) + 1;
    });
    const [N, Cx] = xShape;
    const Cout = transposed ? w.shape[1] * groups : w.shape[0];
    const outShape = [N, Cout, ...outSize];
    const total = numelOf(outShape);
    const re = new Float64Array(total);
    const im = new Float64Array(total);
    const ci = Cx / groups;
    const co = Cout / groups;
    const xi = (v: RefTensor, i: number) => [v.re[i], v.im?.[i] ?? 0];
    const mac = (at: number, xv: number[], wv: number[]) => {
      re[at] += xv[0] * wv[0] - xv[1] * wv[1];
      im[at] += xv[0] * wv[1] + xv[1] * wv[0];
    };
    for (let n = 0; n < N; n++)
      for (let g = 0; g < groups; g++)
        for (let c = 0; c < ci; c++)
          for (let o = 0; o < co; o++)
            for (const k of indices(kSize)) {
              const wAt = transposed ? [g * ci + c, o, ...k] : [g * co + o, c, ...k];
              const wv = xi(w, flatIndex(wAt, w.shape));
              // conv: walk the output; transposed: walk the input (its output positions follow).
              for (const p of indices(transposed ? inSize : outSize)) {
                const q = p.map((v, i) => v * stride[i] - left[i] + k[i] * dilation[i]);
                const span = transposed ? outSize : inSize;
                if (q.some((v, i) => v < 0 || v >= span[i])) continue;
                const [xPos, oPos] = transposed ? [p, q] : [q, p];
                const xv = xi(x, flatIndex([n, g * ci + c, ...xPos], xShape));
                mac(flatIndex([n, g * co + o, ...oPos], outShape), xv, wv);
              }
            }
    if (bias)
      for (const idx of indices(outShape)) {
        const at = flatIndex(idx, outShape);
        re[at] += bias.re[idx[1]];
        im[at] += bias.im?.[idx[1]] ?? 0;
      }
    const complex = x.im !== null || w.im !== null;
    const wrap = INT.includes(x.dtype);
    return {
      shape: batched ? outShape : outShape.slice(1),
      dtype: x.dtype,
      re: wrap ? re.map((v) => castValue(v, x.dtype)) : re,
      im: complex ? im : null,
    };
  };
}
