/**
 * The mean and variance of a bfloat16 row as PyTorch 1.13's CPU layer_norm computes them: utils::RowwiseMoments
 * (aten/src/ATen/native/cpu/moments_utils.h) instantiated for BFloat16, so every step of its Welford updates is a
 * bfloat16 operation (the float result rounded back). Full vectors of 16 lanes (Vectorized<BFloat16> on AVX2, the
 * recording build) update per lane in chunks of 16 vectors, merged by a cascade; the tail updates one scalar; the
 * lanes then merge into it. Probed against Debian's 1.13.1: bit for bit on rows of 7 to 4,097 elements, except
 * some rows of 257 and 273 (one bfloat16 ulp in the variance).
 */
import { roundBf16 as r } from '../../../core/index.ts';

const LANES = 16;
const CHUNK = 16;

interface Moments {
  n: number;
  m1: Float64Array;
  m2: Float64Array;
}

const empty = (): Moments => ({ n: 0, m1: new Float64Array(LANES), m2: new Float64Array(LANES) });

/** AddMoments: merges (nAdd, m1Add, m2Add) into (n, m1, m2), every operation in bfloat16. */
function addMoments(nAdd: number, m1Add: number, m2Add: number, n: number, m1: number, m2: number) {
  const total = n + nAdd;
  const c = total === 0 ? 0 : r(r(nAdd) / r(total));
  const delta = r(m1Add - m1);
  return {
    n: total,
    m1: r(m1 + r(c * delta)),
    m2: r(m2 + r(m2Add + r(r(r(delta * delta) * c) * r(n)))),
  };
}

/** AddMomentsVec: the same merge, lane by lane, into `into`. */
function addMomentsVec(from: Moments, into: Moments): void {
  for (let l = 0; l < LANES; l++) {
    const m = addMoments(from.n, from.m1[l], from.m2[l], into.n, into.m1[l], into.m2[l]);
    into.m1[l] = m.m1;
    into.m2[l] = m.m2;
  }
  into.n += from.n;
}

const ceilLog2 = (x: number) => (x <= 2 ? Math.max(x - 1, 0) : Math.ceil(Math.log2(x)));

/** [mean, variance (divided by N - ddof)] of `x` (bfloat16 values), rounded as PyTorch 1.13's CPU kernel does. */
export function bf16RowMoments(x: ArrayLike<number>, ddof = 0): [number, number] {
  const N = x.length;
  const vectors = Math.floor(N / LANES);
  const chunks = Math.ceil(vectors / CHUNK);
  const depth = ceilLog2(chunks);
  const stack = Array.from({ length: Math.max(depth, 1) }, empty);
  for (let i = 0; i < chunks; i++) {
    const m0 = Math.min(CHUNK, vectors - i * CHUNK);
    const chunk = empty();
    for (let j = 0; j < m0; j++) {
      const c = r(1 / (j + 1));
      const base = (i * CHUNK + j) * LANES;
      for (let l = 0; l < LANES; l++) {
        const v = x[base + l];
        const delta = r(v - chunk.m1[l]);
        chunk.m1[l] = r(chunk.m1[l] + r(delta * c));
        chunk.m2[l] = r(chunk.m2[l] + r(delta * r(v - chunk.m1[l])));
      }
    }
    chunk.n = m0;
    addMomentsVec(chunk, stack[0]);
    // The cascade: a full level merges into the next one up.
    let mask = i + 1;
    for (let j = 1; j < depth && (mask & 1) === 0; j++) {
      addMomentsVec(stack[j - 1], stack[j]);
      stack[j - 1] = empty();
      mask >>= 1;
    }
  }
  for (let i = 1; i < depth; i++) addMomentsVec(stack[i], stack[0]);
  let acc = { n: 0, m1: 0, m2: 0 };
  for (let i = vectors * LANES; i < N; i++) {
    const delta = r(x[i] - acc.m1);
    const n = acc.n + 1;
    const m1 = r(acc.m1 + r(delta / r(n)));
    acc = { n, m1, m2: r(acc.m2 + r(delta * r(x[i] - m1))) };
  }
  for (let l = 0; l < LANES; l++)
    acc = addMoments(vectors, stack[0].m1[l], stack[0].m2[l], acc.n, acc.m1, acc.m2);
  return [acc.m1, r(acc.m2 / r(N - ddof))];
}
