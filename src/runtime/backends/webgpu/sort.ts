/**
 * sort / topk on webgpu, exact and stable without a sorting network: one thread per element computes its rank
 * in its line along `dim` — the number of elements ordered before it, plus the equal ones at lower positions —
 * and writes its value and position there (topk: only ranks below k). NaN orders as the largest value (equal
 * to every NaN), like the cpu; -0.0 and 0.0 are equal. int64 keys compare as (signed high, unsigned low) words.
 * Work is O(n) per element, O(n²) per line: meant for the line lengths tests and typical models use.
 */
import type { DType, Tensor } from '../../core/index.ts';
import { Bindings, dims, kernelSource, onDevice, pushOperand, rawCopy } from './bind.ts';
import { gridFor, launch, Params } from './launch.ts';
import { loadExpr, stridedOffsets } from './wgsl.ts';

/** WGSL `before(a, b)` (a sorts strictly before b) and `same(a, b)` over the key type of a dtype. */
function orderFns(dtype: DType, descending: boolean): { type: string; fns: string } {
  const [x, y] = descending ? ['b', 'a'] : ['a', 'b'];
  if (dtype === 'float32') {
    return {
      type: 'f32',
      fns: `fn before(a: f32, b: f32) -> bool { return !is_nan(${x}) && (is_nan(${y}) || ${x} < ${y}); }
fn same(a: f32, b: f32) -> bool { if (is_nan(a) || is_nan(b)) { return is_nan(a) && is_nan(b); } return a == b; }`,
    };
  }
  if (dtype === 'int64') {
    return {
      type: 'vec2<i32>',
      fns: `fn before(a: vec2<i32>, b: vec2<i32>) -> bool { return ${x}.y < ${y}.y || (${x}.y == ${y}.y && bitcast<u32>(${x}.x) < bitcast<u32>(${y}.x)); }
fn same(a: vec2<i32>, b: vec2<i32>) -> bool { return all(a == b); }`,
    };
  }
  return {
    type: 'i32',
    fns: `fn before(a: i32, b: i32) -> bool { return ${x} < ${y}; }
fn same(a: i32, b: i32) -> bool { return a == b; }`,
  };
}

/**
 * Sorts every line of `self` along `dim` and writes the first `count` of each into `values` / `indices`
 * (int64), at their strides.
 */
export function sortGPU(
  self: Tensor,
  values: Tensor,
  indices: Tensor,
  dim: number,
  descending: boolean,
  count: number,
): void {
  const numel = self.numel;
  if (numel === 0 || count === 0) return;
  self = onDevice(self);
  const s = dims(self);
  const v = dims(values);
  const ix = dims(indices);
  const zeroDim = (st: number[]) => st.map((x, d) => (d === dim ? 0 : x));
  const p = new Params().u32(numel);
  for (const n of s.shape) p.u32(n);
  const bases = [
    pushOperand(p, self.storageOffset, zeroDim(s.strides)),
    pushOperand(p, values.storageOffset, zeroDim(v.strides)),
    pushOperand(p, indices.storageOffset, zeroDim(ix.strides)),
    pushOperand(
      p,
      0,
      s.shape.map((_, d) => (d === dim ? 1 : 0)),
    ),
  ];
  const x = p.length;
  p.u32(s.shape[dim]).u32(count).u32(s.strides[dim]).u32(v.strides[dim]).u32(ix.strides[dim]);
  const b = new Bindings(values.storage, indices.storage);
  const [V, I, S] = [b.of(values.storage), b.of(indices.storage), b.of(self.storage)];
  const { type, fns } = orderFns(self.dtype, descending);
  const key = (o: string) =>
    type === 'vec2<i32>'
      ? `vec2<i32>(${S}[2u * (${o})], ${S}[2u * (${o}) + 1u])`
      : loadExpr(S, o, self.dtype, type === 'f32' ? 'f32' : 'i32');
  const body = `${stridedOffsets(s.shape.length, bases)}
  let i = o3;
  let ki = ${key(`o0 + i * P[${x + 2}]`)};
  var rank = 0u;
  for (var j = 0u; j < P[${x}]; j++) {
    let kj = ${key(`o0 + j * P[${x + 2}]`)};
    if (before(kj, ki) || (j < i && same(kj, ki))) { rank++; }
  }
  if (rank < P[${x + 1}]) {
    ${rawCopy(V, `o1 + rank * P[${x + 3}]`, S, `o0 + i * P[${x + 2}]`, self.dtype)}
    let io = o2 + rank * P[${x + 4}];
    ${I}[2u * io] = i32(i); ${I}[2u * io + 1u] = 0;
  }`;
  launch({ code: kernelSource(b, body, fns), buffers: b.buffers(), params: p.array(), grid: gridFor(numel) });
}
