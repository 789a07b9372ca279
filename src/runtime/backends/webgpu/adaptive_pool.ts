/**
 * Adaptive average / max pooling on webgpu (float32): one thread per output element, which finds its window
 * from its coordinates ([floor(o * in / out), ceil((o + 1) * in / out)) per axis) and walks it, reading the input
 * at its own strides and storage offset. Tensors are seen as [N, C, D, H, W]: an unbatched input has N = 1 and
 * fewer spatial dims are padded in front with size-1 axes (stride 0). Max keeps the first maximum, or the last
 * NaN, and writes its flat in-plane index (int64's two words).
 */
import type { Tensor } from '../../core/index.ts';
import { Bindings, kernelSource, onDevice, pushOperand } from './bind.ts';
import { gridFor, launch, Params } from './launch.ts';

/** Sizes and strides as [N, C, D, H, W]. */
function five(t: Tensor, k: number): { shape: number[]; strides: number[] } {
  const lead = t.ndim - k;
  const pad = 3 - k;
  const shape = [
    lead === 2 ? t.shape[0] : 1,
    t.shape[lead - 1],
    ...Array(pad).fill(1),
    ...t.shape.slice(lead),
  ];
  const strides = [
    lead === 2 ? t.strides[0] : 0,
    t.strides[lead - 1],
    ...Array(pad).fill(0),
    ...t.strides.slice(lead),
  ];
  return { shape, strides };
}

/** Fills `out` (and `indices` for max) from `x`, pooled over its last `k` dims into out's spatial sizes. */
export function adaptivePoolGPU(x: Tensor, k: number, out: Tensor, indices: Tensor | null): void {
  const numel = out.numel;
  if (numel === 0) return;
  x = onDevice(x);
  const o = five(out, k);
  const i = five(x, k);
  const p = new Params().u32(numel);
  for (const n of o.shape) p.u32(n);
  const bases = [pushOperand(p, out.storageOffset, o.strides)];
  if (indices) bases.push(pushOperand(p, indices.storageOffset, five(indices, k).strides));
  const xb = pushOperand(p, x.storageOffset, [i.strides[0], i.strides[1], 0, 0, 0]);
  const extra = p.length;
  for (const n of i.shape.slice(2)) p.u32(n);
  for (const s of i.strides.slice(2)) p.u32(s);
  const b = indices ? new Bindings(out.storage, indices.storage) : new Bindings(out.storage);
  const [O, X] = [b.of(out.storage), b.of(x.storage)];
  const I = indices ? b.of(indices.storage) : '';
  const offsets = [...bases, xb].map((base, j) => `  var o${j} = P[${base}];`).join('\n');
  const xo = `o${bases.length}`;
  const axes = ['d', 'h', 'w'];
  const window = axes
    .map((a, j) => {
      const [n, out_] = [`P[${extra + j}]`, `P[${3 + j}]`];
      return `  let ${a}0 = (c${a} * ${n}) / ${out_}; let ${a}1 = ((c${a} + 1u) * ${n} + ${out_} - 1u) / ${out_};`;
    })
    .join('\n');
  const at = (a: string, j: number) => `${a} * P[${extra + 3 + j}]`;
  const read = `${X}[${xo} + ${at('d', 0)} + ${at('h', 1)} + ${at('w', 2)}]`;
  const visit = indices
    ? `let v = ${read}; if (v > best || is_nan(v)) { best = v; at = (d * P[${extra + 1}] + h) * P[${extra + 2}] + w; }`
    : `sum += ${read};`;
  const init = indices
    ? `var best = -f_inf(); var at = (d0 * P[${extra + 1}] + h0) * P[${extra + 2}] + w0;`
    : 'var sum = 0.0;';
  const store = indices
    ? `${O}[o0] = best; ${I}[2u * o1] = i32(at); ${I}[2u * o1 + 1u] = 0;`
    : `${O}[o0] = sum / f32(d1 - d0) / f32(h1 - h0) / f32(w1 - w0);`;
  const body = `${offsets}
  var r = idx;
  let cw = r % P[5]; r = r / P[5];
  let ch = r % P[4]; r = r / P[4];
  let cd = r % P[3]; r = r / P[3];
  let cc = r % P[2]; r = r / P[2];
  let cn = r;
${[...bases, xb].map((base, j) => `  o${j} += cn * P[${base + 1}] + cc * P[${base + 2}];`).join('\n')}
${bases.map((base, j) => `  o${j} += cd * P[${base + 3}] + ch * P[${base + 4}] + cw * P[${base + 5}];`).join('\n')}
${window}
  ${init}
  for (var d = d0; d < d1; d++) { for (var h = h0; h < h1; h++) { for (var w = w0; w < w1; w++) { ${visit} } } }
  ${store}`;
  launch({ code: kernelSource(b, body), buffers: b.buffers(), params: p.array(), grid: gridFor(numel) });
}
