/**
 * Max and average pooling over 2 or 3 spatial dims: aten's max_pool2d_with_indices / max_pool3d_with_indices
 * (values and int64 flat indices into each input plane) and avg_pool2d / avg_pool3d (with .out), one N-d cpu kernel
 * each that reads the input through its strides and writes every output element once, meta kernels (shape, dtype,
 * and the output layout PyTorch picks: channels_last stays channels_last in 2-d), and derivatives written in
 * runtime ops (scatter-adds into the input planes, so gradgrad works: their derivative is a gather).
 */
import { defineDerivative } from '../../autograd/index.ts';
import { numberReader, numberWriter } from '../../backends/cpu/index.ts';
import {
  channelsLastStrides,
  contiguousStrides,
  DTYPE_INFO,
  type DType,
  InvalidArgumentError,
  NotImplementedError,
  type Shape,
  Tensor,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../dispatch/index.ts';
import { defineOut, notImplementedFor, callTensor as t } from '../op_helpers.ts';
import { isChannelsLast } from '../shape.ts';
import { defineOp } from '../structured.ts';
import { type PoolGeometry, type PoolKind, poolGeometry, poolLists } from './pool_geometry.ts';

const tags = { family: 'nn' } as const;
const prod = (v: readonly number[]) => v.reduce((p, n) => p * n, 1);

/** The geometry of a bound call of one of the four kernel ops. */
export function geometryOf(op: string, kind: PoolKind, nd: number, shape: Shape, a: BoundArgs, cl = false) {
  const lists = poolLists(
    op,
    nd,
    kind,
    a.kernel_size as number[],
    a.stride as number[],
    a.padding as number[],
    kind === 'max' ? (a.dilation as number[]) : [1],
  );
  if (kind === 'avg' && nd === 2) checkDivisor(op, a);
  if (kind === 'avg' && nd === 3 && shape.length !== 4 && shape.length !== 5)
    throw new InvalidArgumentError('non-empty 4D or 5D (batch mode) tensor expected for input', {
      op,
      arg: 'self',
      got: shape.length,
      expected: '4D or 5D',
    });
  if (kind === 'avg' && nd === 3) checkDivisor(op, a);
  return poolGeometry(op, kind, shape, lists, a.ceil_mode as boolean, cl);
}

function checkDivisor(op: string, a: BoundArgs): void {
  if (a.divisor_override === 0)
    throw new InvalidArgumentError('divisor must be not zero', {
      op,
      arg: 'divisor_override',
      got: 0,
      expected: 'a nonzero divisor',
    });
}

/** The output layout: a 4-d channels_last input pools to channels_last (2-d pooling only, as in 1.13's cpu). */
function outputStrides(x: Tensor, shape: number[], nd: number): number[] {
  return nd === 2 && isChannelsLast(x) ? channelsLastStrides(shape) : contiguousStrides(shape);
}

/** Sizes, strides and offsets padded to (N, C, T, H, W), so one loop nest serves 2-d and 3-d pooling. */
interface Frame {
  readonly lead: number[];
  readonly inSize: number[];
  readonly outSize: number[];
  readonly k: number[];
  readonly s: number[];
  readonly p: number[];
  readonly d: number[];
}

function frameOf(g: PoolGeometry): Frame {
  const pad3 = (v: readonly number[], fill: number) => [...new Array(3 - v.length).fill(fill), ...v];
  return {
    lead: g.lead.length === 2 ? [...g.lead] : [1, ...g.lead],
    inSize: pad3(g.input, 1),
    outSize: pad3(g.output, 1),
    k: pad3(g.kernel, 1),
    s: pad3(g.stride, 1),
    p: pad3(g.padding, 0),
    d: pad3(g.dilation, 1),
  };
}

/** Strides of a tensor with nd spatial dims, as (N, C, T, H, W). */
function frameStrides(x: Tensor, nd: number): number[] {
  const lead = x.ndim - nd;
  const st = x.strides;
  const n = lead === 2 ? st[0] : 0;
  const c = st[lead - 1];
  const spatial = st.slice(lead);
  return [n, c, ...new Array(3 - nd).fill(0), ...spatial];
}

/**
 * Each output element is the maximum of its window (dilated, clipped to the input); a NaN wins (the last NaN of
 * the window, as aten's `val > max || isnan(val)`), ties keep the first maximum, and a window with no element
 * inside the input keeps -inf at its first in-bounds position, as aten does.
 */
function maxPoolCpu(x: Tensor, g: PoolGeometry, out: Tensor, indices: Tensor): void {
  const f = frameOf(g);
  const read = numberReader(x.dtype);
  const write = numberWriter(out.dtype);
  const src = x.storage.data!;
  const dst = out.storage.data!;
  const ind = indices.storage.data as BigInt64Array;
  const [xn, xc, xt, xh, xw] = frameStrides(x, g.nd);
  const [on, oc, ot, oh, ow] = frameStrides(out, g.nd);
  const [inN, inC, inT, inH, inW] = frameStrides(indices, g.nd);
  const [T, H, W] = f.inSize;
  const [kT, kH, kW] = f.k;
  const [sT, sH, sW] = f.s;
  const [pT, pH, pW] = f.p;
  const [dT, dH, dW] = f.d;
  for (let n = 0; n < f.lead[0]; n++)
    for (let c = 0; c < f.lead[1]; c++) {
      const xb = x.storageOffset + n * xn + c * xc;
      const ob = out.storageOffset + n * on + c * oc;
      const ib = indices.storageOffset + n * inN + c * inC;
      for (let a = 0; a < f.outSize[0]; a++) {
        let t0 = a * sT - pT;
        const t1 = Math.min(t0 + (kT - 1) * dT + 1, T);
        while (t0 < 0) t0 += dT;
        for (let b = 0; b < f.outSize[1]; b++) {
          let h0 = b * sH - pH;
          const h1 = Math.min(h0 + (kH - 1) * dH + 1, H);
          while (h0 < 0) h0 += dH;
          for (let e = 0; e < f.outSize[2]; e++) {
            let w0 = e * sW - pW;
            const w1 = Math.min(w0 + (kW - 1) * dW + 1, W);
            while (w0 < 0) w0 += dW;
            let best = Number.NEGATIVE_INFINITY;
            let at = (t0 * H + h0) * W + w0;
            for (let z = t0; z < t1; z += dT)
              for (let y = h0; y < h1; y += dH) {
                const row = xb + z * xt + y * xh;
                for (let v = w0; v < w1; v += dW) {
                  const val = read(src, row + v * xw);
                  if (val > best || Number.isNaN(val)) {
                    best = val;
                    at = (z * H + y) * W + v;
                  }
                }
              }
            write(dst, ob + a * ot + b * oh + e * ow, best);
            ind[ib + a * inT + b * inH + e * inW] = BigInt(at);
          }
        }
      }
    }
}

/**
 * Each output element is its window's sum (clipped to the input) over divisor_override, or the window's size
 * counting the padding inside input + padding (count_include_pad) or not; int64 divides with truncation, as C++.
 */
function avgPoolCpu(
  x: Tensor,
  g: PoolGeometry,
  out: Tensor,
  includePad: boolean,
  divisor: number | null,
): void {
  const f = frameOf(g);
  const read = numberReader(x.dtype);
  const write = numberWriter(out.dtype);
  const isInt = x.dtype === 'int64';
  const src = x.storage.data!;
  const dst = out.storage.data!;
  const [xn, xc, xt, xh, xw] = frameStrides(x, g.nd);
  const [on, oc, ot, oh, ow] = frameStrides(out, g.nd);
  const [T, H, W] = f.inSize;
  const [kT, kH, kW] = f.k;
  const [sT, sH, sW] = f.s;
  const [pT, pH, pW] = f.p;
  for (let n = 0; n < f.lead[0]; n++)
    for (let c = 0; c < f.lead[1]; c++) {
      const xb = x.storageOffset + n * xn + c * xc;
      const ob = out.storageOffset + n * on + c * oc;
      for (let a = 0; a < f.outSize[0]; a++) {
        const ta = a * sT - pT;
        const tb = Math.min(ta + kT, T + pT);
        const [t0, t1] = [Math.max(ta, 0), Math.min(tb, T)];
        for (let b = 0; b < f.outSize[1]; b++) {
          const ha = b * sH - pH;
          const hb = Math.min(ha + kH, H + pH);
          const [h0, h1] = [Math.max(ha, 0), Math.min(hb, H)];
          for (let e = 0; e < f.outSize[2]; e++) {
            const wa = e * sW - pW;
            const wb = Math.min(wa + kW, W + pW);
            const [w0, w1] = [Math.max(wa, 0), Math.min(wb, W)];
            const o = ob + a * ot + b * oh + e * ow;
            if (t0 >= t1 || h0 >= h1 || w0 >= w1) {
              write(dst, o, 0);
              continue;
            }
            let sum = 0;
            for (let z = t0; z < t1; z++)
              for (let y = h0; y < h1; y++) {
                const row = xb + z * xt + y * xh;
                for (let v = w0; v < w1; v++) sum += read(src, row + v * xw);
              }
            const div =
              divisor ?? (includePad ? (tb - ta) * (hb - ha) * (wb - wa) : (t1 - t0) * (h1 - h0) * (w1 - w0));
            write(dst, o, isInt ? Math.trunc(sum / div) : sum / div);
          }
        }
      }
    }
}

/** The dtypes PyTorch 1.13's cpu kernels take, plus float16 / bfloat16 everywhere (op_db's deviations). */
function checkDType(x: Tensor, kind: PoolKind, kernel: string, op: string): void {
  const k = DTYPE_INFO[x.dtype].kind;
  if (k !== 'float' && !(kind === 'avg' && x.dtype === 'int64'))
    throw notImplementedFor(
      kernel,
      x.dtype,
      op,
      'self',
      kind === 'avg' ? 'a floating dtype or int64' : 'a floating dtype',
    );
}

interface KernelOp {
  readonly name: string;
  readonly nd: 2 | 3;
  readonly kind: PoolKind;
  /** The name PyTorch's dtype dispatch reports. */
  readonly kernel: string;
}

const KERNEL_OPS: readonly KernelOp[] = [
  { name: 'max_pool2d_with_indices', nd: 2, kind: 'max', kernel: 'max_pool2d' },
  { name: 'max_pool3d_with_indices', nd: 3, kind: 'max', kernel: 'max_pool3d_with_indices_cpu' },
  { name: 'avg_pool2d', nd: 2, kind: 'avg', kernel: 'avg_pool2d' },
  { name: 'avg_pool3d', nd: 3, kind: 'avg', kernel: 'avg_pool3d_out_frame' },
];

/** The user-facing name in the size checks (max_pool2d, not max_pool2d_with_indices). */
const shortName = (o: KernelOp) => o.name.replace('_with_indices', '');

function outputSpec(o: KernelOp, a: BoundArgs) {
  const x = a.self as Tensor;
  const cl = o.nd === 2 && isChannelsLast(x);
  const g = geometryOf(shortName(o), o.kind, o.nd, x.shape, a, cl);
  const shape = [...g.lead, ...g.output];
  return { g, shape, strides: outputStrides(x, shape, o.nd) };
}

function run(o: KernelOp, a: BoundArgs, device: 'cpu' | 'meta'): Tensor[] {
  const x = a.self as Tensor;
  const { g, shape, strides } = outputSpec(o, a);
  checkDType(x, o.kind, o.kernel, o.name);
  const out = Tensor.empty(shape, x.dtype, device, strides);
  if (o.kind === 'avg') {
    if (device === 'cpu') {
      avgPoolCpu(x, g, out, a.count_include_pad as boolean, (a.divisor_override as number | null) ?? null);
    }
    return [out];
  }
  const indices = Tensor.empty(shape, 'int64', device, strides);
  if (device === 'cpu') maxPoolCpu(x, g, out, indices);
  return [out, indices];
}

/**
 * `src` ([planes, per]) added into zeros of the input's shape at each plane's flat `index` ([planes or 1, per]);
 * `spare` extra columns take the elements that land nowhere and are cut off.
 */
export function scatterToPlanes(src: Tensor, index: Tensor, inShape: Shape, nd: number, spare = 0): Tensor {
  const [planes, per] = src.shape;
  const plane = prod(inShape.slice(inShape.length - nd));
  const ix = t('expand', [index, [planes, per]]);
  const zeros = t('zeros', [[planes, plane + spare]], { dtype: src.dtype, device: src.device });
  let flat = t('scatter', [zeros, 1, ix, src], { reduce: 'add' });
  if (spare) flat = t('narrow', [flat, 1, 0, plane]);
  return t('reshape', [flat, [...inShape]]);
}

/** max pooling's gradient: each output's gradient added to the input element its maximum came from. */
export function maxPoolBackward(grad: Tensor, indices: Tensor, inShape: Shape, nd: number): Tensor {
  const planes = prod(inShape.slice(0, inShape.length - nd));
  const per = prod(grad.shape.slice(grad.ndim - nd));
  return scatterToPlanes(
    t('reshape', [grad, [planes, per]]),
    t('reshape', [indices, [planes, per]]),
    inShape,
    nd,
  );
}

/**
 * avg_pool's gradient: each output's gradient over its divisor, added to every input element of its window. The
 * (window element -> input position) map depends on shapes only, so it is built on the host; window elements in
 * the padding go to a spare column that is cut off.
 */
function avgPoolBackward(grad: Tensor, o: KernelOp, a: BoundArgs, inShape: Shape): Tensor {
  const g = geometryOf(shortName(o), 'avg', o.nd, inShape, a);
  const f = frameOf(g);
  const [T, H, W] = f.inSize;
  const plane = T * H * W;
  const K = prod(f.k);
  const O = prod(f.outSize);
  const map = Tensor.empty([O * K], 'int64', 'cpu');
  const weight = Tensor.empty([O, K], 'float64', 'cpu');
  const m = map.storage.data as BigInt64Array;
  const w = weight.storage.data as Float64Array;
  const includePad = a.count_include_pad as boolean;
  const divisor = (a.divisor_override as number | null) ?? null;
  let i = 0;
  for (let at = 0; at < f.outSize[0]; at++)
    for (let bh = 0; bh < f.outSize[1]; bh++)
      for (let cw = 0; cw < f.outSize[2]; cw++) {
        const start = [at, bh, cw].map((q, j) => q * f.s[j] - f.p[j]);
        const end = start.map((s0, j) => Math.min(s0 + f.k[j], f.inSize[j] + f.p[j]));
        const lo = start.map((s0) => Math.max(s0, 0));
        const hi = end.map((e0, j) => Math.min(e0, f.inSize[j]));
        const div =
          divisor ??
          (includePad ? prod(end.map((e0, j) => e0 - start[j])) : prod(hi.map((h, j) => h - lo[j])));
        for (let z = start[0]; z < start[0] + f.k[0]; z++)
          for (let y = start[1]; y < start[1] + f.k[1]; y++)
            for (let v = start[2]; v < start[2] + f.k[2]; v++, i++) {
              const inside = z >= lo[0] && z < hi[0] && y >= lo[1] && y < hi[1] && v >= lo[2] && v < hi[2];
              m[i] = BigInt(inside ? (z * H + y) * W + v : plane);
              w[i] = inside ? 1 / div : 0;
            }
      }
  const planes = prod(g.lead);
  const weights = t('to', [weight, grad.device, grad.dtype]);
  const perOutput = t('unsqueeze', [t('reshape', [grad, [planes, O]]), 2]);
  const src = t('reshape', [t('mul', [perOutput, weights]), [planes, O * K]]);
  const index = t('reshape', [t('to', [map, grad.device]), [1, O * K]]);
  return scatterToPlanes(src, index, inShape, o.nd, 1);
}

export const POOLING_KERNEL_API = {
  max_pool2d_with_indices: 'function',
  max_pool3d_with_indices: 'function',
  avg_pool2d: 'function',
  avg_pool3d: 'function',
} as const satisfies ApiDecl;

const noWebgpu = (name: string) => () => {
  throw new NotImplementedError(`${name} has no webgpu kernel`, {
    op: name,
    arg: 'self',
    got: 'webgpu',
    expected: 'cpu or meta',
  });
};

export function registerPoolingKernels(): void {
  const dims = (nd: number) => `int[${nd}]`;
  for (const o of KERNEL_OPS) {
    const i = dims(o.nd);
    const params =
      o.kind === 'max'
        ? `Tensor self, ${i} kernel_size, ${i} stride=[], ${i} padding=0, ${i} dilation=1, bool ceil_mode=False`
        : `Tensor self, ${i} kernel_size, ${i} stride=[], ${i} padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None`;
    const result = o.kind === 'max' ? '(Tensor, Tensor)' : 'Tensor';
    const pick = (r: Tensor[]) => (o.kind === 'max' ? r : r[0]);
    defineOp({
      schema: `${o.name}(${params}) -> ${result}`,
      tags,
      cpu: (a) => pick(run(o, a, 'cpu')),
      meta: (a) => pick(run(o, a, 'meta')),
      webgpu: noWebgpu(o.name),
    });
    const node = `${o.kind === 'max' ? 'MaxPool' : 'AvgPool'}${o.nd}D${o.kind === 'max' ? 'WithIndices' : ''}Backward0`;
    if (o.kind === 'max')
      defineDerivative(o.name, {
        name: node,
        saves: ['result'],
        nondiffOutputs: [1],
        formula: (c) => [maxPoolBackward(c.grad, c.results[1], c.shapes.self, o.nd)],
      });
    else {
      defineDerivative(o.name, {
        name: node,
        saves: [],
        formula: (c) => [avgPoolBackward(c.grad, o, c.args, c.shapes.self)],
      });
      defineOut(
        `${o.name}.out(${params}, *, Tensor(a!) out) -> Tensor(a!)`,
        tags,
        (a) => {
          const { shape, strides } = outputSpec(o, a);
          return { shape, strides, dtype: (a.self as Tensor).dtype as DType };
        },
        (a, out) => {
          const x = a.self as Tensor;
          const { g } = outputSpec(o, a);
          checkDType(x, o.kind, o.kernel, o.name);
          avgPoolCpu(
            x,
            g,
            out,
            a.count_include_pad as boolean,
            (a.divisor_override as number | null) ?? null,
          );
        },
        'exact',
      );
    }
  }
  operatorTable.declare(POOLING_KERNEL_API);
}
