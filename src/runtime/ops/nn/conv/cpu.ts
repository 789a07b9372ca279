/**
 * The cpu convolution kernels: im2col + gemm for a convolution, gemm + col2im for a transposed one, one
 * implementation for 1, 2 and 3 spatial dims (fewer dims are padded to three with size-1 dims). The input is read
 * through its own strides and storage offset; im2col copies raw storage elements (complex: two per element), so
 * every dtype shares it and zero padding is a 0 bit pattern. float32 / float64 products run the blocked kernel of
 * nn/conv/gemm.ts, other dtypes gemm.ts's; both accumulate in float64 (wrapping ints) and round once per element.
 */
import { DTYPE_INFO, type StorageArray, Tensor } from '../../../core/index.ts';
import { gemmAt, type MatrixAt } from '../../linalg/index.ts';
import { accessFor, addVals, collapsedStride, flat } from './access.ts';
import { convGemmFor } from './gemm.ts';

/** A convolution's geometry, spatial dims padded to 3 (leading size-1 dims). */
export interface Geometry {
  readonly n: number;
  readonly groups: number;
  /** Channels per group: input and output. */
  readonly cin: number;
  readonly cout: number;
  readonly inSize: readonly number[];
  readonly kSize: readonly number[];
  readonly outSize: readonly number[];
  readonly stride: readonly number[];
  readonly padding: readonly number[];
  readonly dilation: readonly number[];
}

const prod = (xs: readonly number[]) => xs.reduce((a, b) => a * b, 1);
const pad3 = (xs: readonly number[], fill: number) => [...new Array(3 - xs.length).fill(fill), ...xs];
/** A tensor's spatial strides padded to 3 dims (a size-1 dim's stride is never used). */
const spatialStrides = (t: Tensor) => pad3(t.strides.slice(2), 0);

export function geometry(
  input: Tensor,
  out: Tensor,
  weight: Tensor,
  p: { stride: number[]; padding: number[]; dilation: number[]; groups: number; transposed: boolean },
): Geometry {
  const g = p.groups;
  // A transposed convolution is computed as the adjoint of the convolution from its output to its input.
  const [small, big] = p.transposed ? [input, out] : [out, input];
  return {
    n: input.shape[0],
    groups: g,
    cin: big.shape[1] / g,
    cout: small.shape[1] / g,
    inSize: pad3(big.shape.slice(2), 1),
    kSize: pad3(weight.shape.slice(2), 1),
    outSize: pad3(small.shape.slice(2), 1),
    stride: pad3(p.stride, 1),
    padding: pad3(p.padding, 0),
    dilation: pad3(p.dilation, 1),
  };
}

const zeroOf = (arr: StorageArray): number | bigint => (arr instanceof BigInt64Array ? 0n : 0);

/** First and one-past-last output index o with 0 <= o * s - p + off < size. */
function validRange(size: number, outSize: number, s: number, p: number, off: number): [number, number] {
  const lo = Math.max(0, Math.ceil((p - off) / s));
  const hi = Math.min(outSize, Math.floor((size - 1 + p - off) / s) + 1);
  return [lo, Math.max(lo, hi)];
}

/**
 * cols[(c, k0, k1, k2), (o0, o1, o2)] = x[n, c0 + c, o * stride - padding + k * dilation] (0 outside): a
 * contiguous [cin * prod(k), prod(out)] matrix. `w` storage elements per logical element (2 for complex).
 */
export function im2col(x: Tensor, n: number, c0: number, geo: Geometry, cols: StorageArray, w: number): void {
  const X = x.storage.data! as StorageArray & { [i: number]: number | bigint };
  const C = cols as StorageArray & { [i: number]: number | bigint };
  const zero = zeroOf(cols);
  const [is0, is1, is2] = spatialStrides(x);
  const [n0, n1, n2] = geo.inSize;
  const [k0, k1, k2] = geo.kSize;
  const [o0, o1, o2] = geo.outSize;
  const [s0, s1, s2] = geo.stride;
  const [p0, p1, p2] = geo.padding;
  const [d0, d1, d2] = geo.dilation;
  const L = o0 * o1 * o2;
  let row = 0;
  for (let c = 0; c < geo.cin; c++) {
    const base = x.storageOffset + n * x.strides[0] + (c0 + c) * x.strides[1];
    for (let a = 0; a < k0; a++)
      for (let b = 0; b < k1; b++)
        for (let e = 0; e < k2; e++, row++) {
          let dst = row * L * w;
          const [lo, hi] = validRange(n2, o2, s2, p2, e * d2);
          for (let y0 = 0; y0 < o0; y0++) {
            const i0 = y0 * s0 - p0 + a * d0;
            if (i0 < 0 || i0 >= n0) {
              C.fill(zero as never, dst, dst + o1 * o2 * w);
              dst += o1 * o2 * w;
              continue;
            }
            for (let y1 = 0; y1 < o1; y1++) {
              const i1 = y1 * s1 - p1 + b * d1;
              if (i1 < 0 || i1 >= n1) {
                C.fill(zero as never, dst, dst + o2 * w);
                dst += o2 * w;
                continue;
              }
              C.fill(zero as never, dst, dst + lo * w);
              let src = base + i0 * is0 + i1 * is1 + (lo * s2 - p2 + e * d2) * is2;
              const step = s2 * is2;
              if (w === 1) {
                for (let y2 = lo, q = dst + lo; y2 < hi; y2++, q++, src += step) C[q] = X[src];
              } else {
                for (let y2 = lo, q = dst + lo * w; y2 < hi; y2++, src += step)
                  for (let j = 0; j < w; j++, q++) C[q] = X[src * w + j];
              }
              C.fill(zero as never, dst + hi * w, dst + o2 * w);
              dst += o2 * w;
            }
          }
        }
  }
}

/** out[n, c, ...] += bias[c] over out's flattened spatial dims (stride cs). */
function addBias(out: Tensor, bias: Tensor, cs: number, L: number): void {
  const acc = accessFor(out);
  const bacc = accessFor(bias);
  const O = out.storage.data!;
  const B = bias.storage.data!;
  const w = acc.w;
  for (let n = 0; n < out.shape[0]; n++)
    for (let c = 0; c < out.shape[1]; c++) {
      const base = out.storageOffset + n * out.strides[0] + c * out.strides[1];
      for (let j = 0; j < w; j++) {
        const b = bacc.get(B, (bias.storageOffset + c * bias.strides[0]) * w + j);
        for (let l = 0, i = base; l < L; l++, i += cs)
          acc.set(O, i * w + j, addVals(acc.get(O, i * w + j), b));
      }
    }
}

/** out = conv(input, weight) + bias: per batch element and group, im2col then W_g [cout, K] @ cols [K, L]. */
export function convForward(
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  out: Tensor,
  geo: Geometry,
): void {
  const K = geo.cin * prod(geo.kSize);
  const L = prod(geo.outSize);
  const w = DTYPE_INFO[input.dtype].kind === 'complex' ? 2 : 1;
  const ocs = collapsedStride(out, 2)!;
  const cols = Tensor.empty([K, L], input.dtype, 'cpu');
  const colsM: MatrixAt = { t: cols, off: 0, rs: L, cs: 1 };
  const wf = flat(weight, 1);
  const [ws0] = wf.t.strides;
  const blocked = convGemmFor(input.dtype);
  for (let n = 0; n < geo.n; n++)
    for (let g = 0; g < geo.groups; g++) {
      im2col(input, n, g * geo.cin, geo, cols.storage.data!, w);
      const o = out.storageOffset + n * out.strides[0] + g * geo.cout * out.strides[1];
      const a: MatrixAt = { t: wf.t, off: wf.t.storageOffset + g * geo.cout * ws0, rs: ws0, cs: wf.cs };
      if (blocked)
        blocked(
          out.storage.data!,
          o,
          out.strides[1],
          ocs,
          wf.t.storage.data!,
          a.off,
          a.rs,
          a.cs,
          cols.storage.data!,
          geo.cout,
          K,
          L,
        );
      else gemmAt({ t: out, off: o, rs: out.strides[1], cs: ocs }, a, colsM, geo.cout, K, L);
    }
  if (bias) addBias(out, bias, ocs, L);
}

/**
 * out = conv_transpose(input, weight) + bias, the adjoint of convForward: per batch element and group,
 * cols [cout_g * prod(k), L_in] = W_g^T @ X_g, then col2im adds each column into the output window it came from
 * (accumulated in float64 / int64, rounded once). `geo` is the adjoint convolution's (in: out's size).
 */
export function convTransposed(
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  out: Tensor,
  geo: Geometry,
): void {
  const [cOut, cIn] = [geo.cin, geo.cout];
  const K = cOut * prod(geo.kSize);
  const L = prod(geo.outSize);
  const P = prod(geo.inSize);
  const acc = accessFor(out);
  const w = acc.w;
  const cols = Tensor.empty([K, L], input.dtype, 'cpu');
  const C = cols.storage.data!;
  const colsM: MatrixAt = { t: cols, off: 0, rs: L, cs: 1 };
  const wf = flat(weight, 1);
  const xf = flat(input, 2);
  const big = input.dtype === 'int64';
  const sum = big ? new BigInt64Array(cOut * P * w) : new Float64Array(cOut * P * w);
  const S = sum as unknown as { [i: number]: number | bigint };
  const [n0, n1, n2] = geo.inSize;
  const [k0, k1, k2] = geo.kSize;
  const [o0, o1, o2] = geo.outSize;
  const [s0, s1, s2] = geo.stride;
  const [p0, p1, p2] = geo.padding;
  const [d0, d1, d2] = geo.dilation;
  const O = out.storage.data!;
  for (let n = 0; n < geo.n; n++)
    for (let g = 0; g < geo.groups; g++) {
      const a: MatrixAt = {
        t: wf.t,
        off: wf.t.storageOffset + g * cIn * wf.t.strides[0],
        rs: wf.cs,
        cs: wf.t.strides[0],
      };
      const xs = xf.t.strides;
      const b: MatrixAt = {
        t: xf.t,
        off: xf.t.storageOffset + n * xs[0] + g * cIn * xs[1],
        rs: xs[1],
        cs: xf.cs,
      };
      gemmAt(colsM, a, b, K, cIn, L);
      sum.fill(big ? (0n as never) : (0 as never));
      let row = 0;
      for (let o = 0; o < cOut; o++)
        for (let ka = 0; ka < k0; ka++)
          for (let kb = 0; kb < k1; kb++)
            for (let ke = 0; ke < k2; ke++, row++) {
              const [lo, hi] = validRange(n2, o2, s2, p2, ke * d2);
              for (let y0 = 0; y0 < o0; y0++) {
                const i0 = y0 * s0 - p0 + ka * d0;
                if (i0 < 0 || i0 >= n0) continue;
                for (let y1 = 0; y1 < o1; y1++) {
                  const i1 = y1 * s1 - p1 + kb * d1;
                  if (i1 < 0 || i1 >= n1) continue;
                  let src = row * L + (y0 * o1 + y1) * o2 + lo;
                  let dst = ((o * n0 + i0) * n1 + i1) * n2 + lo * s2 - p2 + ke * d2;
                  for (let y2 = lo; y2 < hi; y2++, src++, dst += s2)
                    for (let j = 0; j < w; j++) {
                      const v = acc.get(C, src * w + j);
                      S[dst * w + j] = big
                        ? (S[dst * w + j] as bigint) + (v as bigint)
                        : (S[dst * w + j] as number) + Number(v);
                    }
                }
              }
            }
      const base = out.storageOffset + n * out.strides[0] + g * cOut * out.strides[1];
      const bacc = bias ? accessFor(bias) : null;
      for (let o = 0; o < cOut; o++)
        for (let j = 0; j < w; j++) {
          const bv =
            bias && bacc
              ? bacc.get(bias.storage.data!, (bias.storageOffset + (g * cOut + o) * bias.strides[0]) * w + j)
              : null;
          for (let q = 0; q < P; q++) {
            const v = S[(o * P + q) * w + j];
            acc.set(
              O,
              (base + o * out.strides[1] + q) * w + j,
              bv === null ? v : addVals(v, big ? bv : Number(bv)),
            );
          }
        }
    }
}
