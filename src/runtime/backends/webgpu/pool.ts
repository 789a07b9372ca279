/**
 * The one webgpu pooling kernel (float32) of max_pool / avg_pool and adaptive pooling, the cpu walker's design
 * (ops/nn/pool/windows.ts) in WGSL: one thread per output element of the (N, C, D, H, W) frame (fewer spatial
 * dims are padded in front with size-1, stride-0 axes) finds its window along each axis through a WGSL
 * `window` function, the window description (slidingWindowsGPU or adaptiveWindowsGPU), and walks it, reading
 * the input at its own strides and offset and writing the output (and the max's int64 indices) at theirs. The
 * window rules are the cpu kernel's: a NaN wins, ties keep the first maximum, indices are flat in the plane.
 */
import type { Tensor } from '../../core/index.ts';
import { Bindings, kernelSource, onDevice, pushOperand } from './bind.ts';
import { gridFor, launch, Params } from './launch.ts';
import { storeStmt } from './wgsl.ts';

/**
 * One window description: `wgsl` defines `window(c, n, w)`, the window of output position `c` along an axis of
 * input size `n` whose parameter words start at `P[w]`, as vec4(first tap, end (exclusive), step between taps,
 * extent counting the padding); `words` holds those words for the 3 axes of the frame.
 */
export interface GpuWindows {
  readonly wgsl: string;
  readonly words: readonly (readonly number[])[];
}

/** Per-axis words padded in front to 3 axes with `one` (a size-1 axis's single window covering it). */
const pad3 = (axes: readonly (readonly number[])[], one: readonly number[]) => [
  ...Array.from({ length: 3 - axes.length }, () => one),
  ...axes,
];

const SLIDING = `fn window(c: i32, n: i32, w: u32) -> vec4<i32> {
  let k = i32(P[w]); let s = i32(P[w + 1u]); let p = i32(P[w + 2u]); let d = i32(P[w + 3u]);
  let raw = c * s - p;
  var first = raw; loop { if (first >= 0) { break; } first += d; }
  return vec4<i32>(first, min(raw + (k - 1) * d + 1, n), d, min(raw + k, n + p) - raw);
}`;

/**
 * max_pool / avg_pool's windows (each argument one value per spatial dim): output c's taps are
 * c * stride - padding + j * dilation (j < kernel) inside the input, from the first of those >= 0.
 */
export function slidingWindowsGPU(
  kernel: readonly number[],
  stride: readonly number[],
  padding: readonly number[],
  dilation: readonly number[],
): GpuWindows {
  const axes = kernel.map((k, a) => [k, stride[a], padding[a], dilation[a]]);
  return { wgsl: SLIDING, words: pad3(axes, [1, 1, 0, 1]) };
}

const ADAPTIVE = `fn window(c: i32, n: i32, w: u32) -> vec4<i32> {
  let m = i32(P[w]); let first = (c * n) / m; let end = ((c + 1) * n + m - 1) / m;
  return vec4<i32>(first, end, 1, end - first);
}`;

/** Adaptive windows: output c of `outSize` covers [floor(c * in / out), ceil((c + 1) * in / out)). */
export function adaptiveWindowsGPU(outSize: readonly number[]): GpuWindows {
  return {
    wgsl: ADAPTIVE,
    words: pad3(
      outSize.map((m) => [m]),
      [1],
    ),
  };
}

/**
 * How avg turns a window's sum into its mean: adaptive pooling divides by each axis's count in turn (aten's
 * rounding), avg_pool by divisor_override (0: none) or the window's size with (count_include_pad) or without
 * the padding.
 */
export type GpuDivide = 'per-axis' | { readonly includePad: boolean; readonly divisor: number };

export interface GpuPool {
  readonly input: Tensor;
  /** The number of spatial dims (1 to 3), the last ones of input and outputs. */
  readonly nd: number;
  readonly out: Tensor;
  /** Max pooling writes the values and these indices; without them the pooling is an average. */
  readonly indices?: Tensor | null;
  readonly windows: GpuWindows;
  readonly divide?: GpuDivide;
}

/** A tensor's sizes and strides as (N, C, D, H, W): N = 1 (stride 0) when unbatched, front spatial axes size 1. */
function frame(t: Tensor, nd: number): { shape: number[]; strides: number[] } {
  const lead = t.ndim - nd;
  const fill = (v: readonly number[], n: number, one: number) => [
    lead === 2 ? v[0] : n,
    v[lead - 1],
    ...Array(3 - nd).fill(one),
    ...v.slice(lead),
  ];
  return { shape: fill(t.shape, 1, 1), strides: fill(t.strides, 0, 0) };
}

export function poolGPU(g: GpuPool): void {
  const numel = g.out.numel;
  if (numel === 0) return;
  const x = onDevice(g.input);
  const [o, i] = [frame(g.out, g.nd), frame(x, g.nd)];
  const p = new Params().u32(numel);
  for (const n of o.shape) p.u32(n);
  const operands = [g.out, x, ...(g.indices ? [g.indices] : [])];
  const bases = operands.map((t, k) => {
    const s = k === 1 ? [...i.strides.slice(0, 2), 0, 0, 0] : frame(t, g.nd).strides;
    return pushOperand(p, t.storageOffset, s);
  });
  const G = p.length;
  for (const v of [...i.shape.slice(2), ...i.strides.slice(2)]) p.u32(v);
  const wordsAt = g.windows.words.map((w) => {
    const base = p.length;
    for (const v of w) p.u32(v);
    return base;
  });
  const divide = g.divide ?? 'per-axis';
  if (divide !== 'per-axis') p.u32(divide.includePad ? 1 : 0).i32(divide.divisor);
  const b = g.indices ? new Bindings(g.out.storage, g.indices.storage) : new Bindings(g.out.storage);
  const [O, X] = [b.of(g.out.storage), b.of(x.storage)];
  const offsets = bases
    .map((base, k) => {
      const terms = [0, 1, 2, 3, 4].map((d) => `c${d} * P[${base + 1 + d}]`).join(' + ');
      return `  let o${k} = P[${base}] + ${terms};`;
    })
    .join('\n');
  const head = `  var r = idx;
  let c4 = r % P[5]; r = r / P[5]; let c3 = r % P[4]; r = r / P[4]; let c2 = r % P[3]; r = r / P[3];
  let c1 = r % P[2]; let c0 = r / P[2];
${offsets}
  let n0 = i32(P[${G}]); let n1 = i32(P[${G + 1}]); let n2 = i32(P[${G + 2}]);
  let s0 = P[${G + 3}]; let s1 = P[${G + 4}]; let s2 = P[${G + 5}];
  let wd = window(i32(c2), n0, ${wordsAt[0]}u);
  let wh = window(i32(c3), n1, ${wordsAt[1]}u);
  let ww = window(i32(c4), n2, ${wordsAt[2]}u);`;
  const walk = (visit: string) => `
  for (var z = wd.x; z < wd.y; z += wd.z) {
    for (var y = wh.x; y < wh.y; y += wh.z) {
      for (var v = ww.x; v < ww.y; v += ww.z) {
        let val = ${X}[o1 + u32(z) * s0 + u32(y) * s1 + u32(v) * s2];
        ${visit}
      }
    }
  }`;
  const body = g.indices
    ? `${head}
  var best = -f_inf();
  var at = (wd.x * n1 + wh.x) * n2 + ww.x;${walk('if (val > best || is_nan(val)) { best = val; at = (z * n1 + y) * n2 + v; }')}
  ${O}[o0] = best;
  ${storeStmt(b.of(g.indices.storage), 'o2', 'int64', 'at', 'i32')}`
    : `${head}
  var sum = 0.0;${walk('sum += val;')}
  ${O}[o0] = ${divide === 'per-axis' ? 'sum / f32(wd.y - wd.x) / f32(wh.y - wh.x) / f32(ww.y - ww.x)' : 'sum / divisor(wd, wh, ww)'};`;
  const fns = divide === 'per-axis' ? g.windows.wgsl : `${g.windows.wgsl}\n${divisorFn(p.length - 2)}`;
  launch({ code: kernelSource(b, body, fns), buffers: b.buffers(), params: p.array(), grid: gridFor(numel) });
}

/** avg_pool's divisor from the three axes' windows and the words (count_include_pad, divisor_override) at w. */
const divisorFn = (w: number) => `fn divisor(wd: vec4<i32>, wh: vec4<i32>, ww: vec4<i32>) -> f32 {
  let given = bitcast<i32>(P[${w + 1}]);
  if (given != 0) { return f32(given); }
  if (P[${w}] != 0u) { return f32(wd.w * wh.w * ww.w); }
  return f32((wd.y - wd.x) * (wh.y - wh.x) * (ww.y - ww.x));
}`;
