/**
 * The resampling kernel shared by every upsample kind and by area mode: the cpu kernel (each output element the
 * weighted sum over the product of its per-dim taps, read through the input's strides and nested outer dim first,
 * as aten's generic kernel nests them), the output's memory format, and the derivative, written in runtime ops (a
 * scatter-add of each tap along each dim, innermost first), so it is itself differentiable: its derivative in
 * grad_output is the forward resampling again.
 */
import { numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import { contiguousStrides, type DType, Tensor } from '../../../core/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { computeTaps, type TapKind, type Taps } from './upsample_taps.ts';
/** Dense strides in the input's suggested memory format (channels_last for NHWC / NDHWC-strided inputs). */
export function suggestedStrides(x: Tensor, shape: readonly number[]): number[] {
  const n = x.ndim;
  if (n === 4 || n === 5) {
    // c10's is_channels_last_strides_{2d,3d}: channels innermost, then W, H(, D), then N.
    const order = n === 4 ? [1, 3, 2, 0] : [1, 4, 3, 2, 0];
    let min = 0;
    let last = x.strides[1] !== 0;
    for (const d of order) {
      if (!last) break;
      if (x.shape[d] === 0 || x.strides[d] < min || (d === 0 && min === x.strides[1])) last = false;
      min = x.strides[d] * Math.max(x.shape[d], 1);
    }
    if (last) {
      const s = new Array<number>(n);
      let acc = 1;
      for (const d of order) {
        s[d] = acc;
        acc *= Math.max(shape[d], 1);
      }
      return s;
    }
  }
  return contiguousStrides(shape);
}

/** Every spatial dim's taps for one call. */
export function tapsFor(
  kind: TapKind,
  input: readonly number[],
  output: readonly number[],
  alignCorners: boolean,
  scales: readonly (number | null)[],
  dtype: DType,
): Taps[] {
  return output.map((o, i) =>
    computeTaps({ kind, input: input[i], output: o, alignCorners, scale: scales[i], dtype }),
  );
}

/** Fills `out` ([N, C, O...]) from `x` ([N, C, I...]) through both tensors' strides. */
export function resampleCpu(x: Tensor, out: Tensor, taps: readonly Taps[]): void {
  const k = taps.length;
  const read = numberReader(x.dtype);
  const write = numberWriter(out.dtype);
  const src = x.storage.data!;
  const dst = out.storage.data!;
  const inStride = x.strides.slice(2);
  // Per dim, each tap's input offset (index times stride): the inner loops only add.
  const offsets = taps.map((tp, d) => Int32Array.from(tp.index, (i) => i * inStride[d]));
  const outShape = out.shape.slice(2);
  const outStride = out.strides.slice(2);
  const value = (d: number, at: number, o: readonly number[]): number => {
    const tp = taps[d];
    const offs = offsets[d];
    let acc = 0;
    for (let j = tp.start[o[d]]; j < tp.start[o[d] + 1]; j++) {
      const v = d + 1 === k ? read(src, at + offs[j]) : value(d + 1, at + offs[j], o);
      acc += tp.weight[j] * v;
    }
    return acc;
  };
  const pos = new Array<number>(k).fill(0);
  const planeSize = outShape.reduce((a, b) => a * b, 1);
  for (let n = 0; n < x.shape[0]; n++)
    for (let c = 0; c < x.shape[1]; c++) {
      const inBase = x.storageOffset + n * x.strides[0] + c * x.strides[1];
      let outAt = out.storageOffset + n * out.strides[0] + c * out.strides[1];
      pos.fill(0);
      for (let e = 0; e < planeSize; e++) {
        write(dst, outAt, value(0, inBase, pos));
        for (let d = k - 1; d >= 0; d--) {
          outAt += outStride[d];
          if (++pos[d] < outShape[d]) break;
          outAt -= outStride[d] * outShape[d];
          pos[d] = 0;
        }
      }
    }
}

const zeros = (shape: readonly number[], like: Tensor) =>
  t('zeros', [[...shape]], { dtype: like.dtype, device: like.device });

/** A 1-D tensor of `dtype` on `device` whose element i is value(i) (written on the host). */
function hostTensor(shape: number[], dtype: DType, device: string, value: (i: number) => number): Tensor {
  const x = Tensor.empty(shape, dtype, 'cpu');
  const write = numberWriter(dtype);
  for (let i = 0; i < x.numel; i++) write(x.storage.data!, i, value(i));
  return device === 'cpu' ? x : t('to', [x, device]);
}

/**
 * The gradient of a resampling: each dim's taps transposed (grad scattered back and added at the indices it was
 * read from, times the weight), innermost dim first. Written in runtime ops, so it differentiates again.
 */
export function resampleBackward(grad: Tensor, inputShape: readonly number[], taps: readonly Taps[]): Tensor {
  let g = grad;
  for (let d = taps.length - 1; d >= 0; d--) {
    const tp = taps[d];
    const dim = d + 2;
    const outSize = tp.start.length - 1;
    const width = Math.max(0, ...Array.from({ length: outSize }, (_, o) => tp.start[o + 1] - tp.start[o]));
    const shape = g.shape.map((s, i) => (i === dim ? inputShape[dim] : s));
    const view = g.shape.map((_, i) => (i === dim ? outSize : 1));
    let acc: Tensor | null = null;
    for (let j = 0; j < width; j++) {
      // Outputs with fewer taps (area windows) read their first tap with weight 0.
      const at = (o: number) => (tp.start[o] + j < tp.start[o + 1] ? tp.start[o] + j : -1);
      const idx = hostTensor([outSize], 'int64', g.device, (o) => tp.index[at(o) < 0 ? tp.start[o] : at(o)]);
      const wt = hostTensor([outSize], g.dtype, g.device, (o) => (at(o) < 0 ? 0 : tp.weight[at(o)]));
      const index = t('expand', [t('reshape', [idx, view]), [...g.shape]]);
      const src = t('mul', [g, t('reshape', [wt, view])]);
      const part = t('scatter', [zeros(shape, g), dim, index, src], { reduce: 'add' });
      acc = acc ? t('add', [acc, part]) : part;
    }
    g = acc ?? zeros(shape, g);
  }
  return g;
}
