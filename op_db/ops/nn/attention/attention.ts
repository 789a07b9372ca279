/**
 * OpInfo for nn.functional._scaled_dot_product_attention (PyTorch 1.13's private attention): output and attention
 * weights, softmax(q k^T / sqrt(E) + mask) and its product with value, from the definition in float64.
 */
import type { Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, exact, f32, sample } from '../../../families/shape.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { dropoutRef } from '../../../refs/random.ts';
import { type RefTensor, refTensor } from '../../../refs/tensor.ts';
import {
  type ErrorInput,
  RANDOM_SEED,
  type RefSample,
  type SampleContext,
  type SampleInput,
} from '../../../types.ts';

/** Element [..., i, j] of a tensor broadcast to `batch` leading dims + [rows, cols]. */
function reader(x: RefTensor, batch: readonly number[], rows: number, cols: number) {
  const shape = x.shape;
  const full = [...batch, rows, cols];
  const lead = full.length - shape.length;
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  return (b: readonly number[], i: number, j: number) => {
    const idx = [...b, i, j];
    let off = 0;
    for (let d = 0; d < shape.length; d++) off += (shape[d] === 1 ? 0 : idx[d + lead]) * strides[d];
    return x.re[off];
  };
}

function attentionRef(s: RefSample): RefTensor[] {
  const q = s.input;
  const [k, v] = s.args as RefTensor[];
  const mask = (s.args[2] ?? s.kwargs.attn_mask ?? null) as RefTensor | null;
  const causal = Boolean(s.kwargs.is_causal);
  const [l, e] = q.shape.slice(-2);
  const [sk, ev] = [k.shape[k.shape.length - 2], v.shape[v.shape.length - 1]];
  const lead = [q.shape, k.shape, v.shape].map((x) => x.slice(0, -2));
  const nb = Math.max(...lead.map((x) => x.length));
  const batch = Array.from({ length: nb }, (_, d) =>
    Math.max(...lead.map((x) => x[d - (nb - x.length)] ?? 1)),
  );
  const numBatch = batch.reduce((a, b) => a * b, 1);
  const [rq, rk, rv] = [reader(q, batch, l, e), reader(k, batch, sk, e), reader(v, batch, sk, ev)];
  const rm = mask ? reader(mask, batch, l, sk) : null;
  const out = new Float64Array(numBatch * l * ev);
  const weights = new Float64Array(numBatch * l * sk);
  for (let n = 0; n < numBatch; n++) {
    const b: number[] = [];
    for (let d = nb - 1, r = n; d >= 0; d--) {
      b.unshift(r % batch[d]);
      r = Math.floor(r / batch[d]);
    }
    for (let i = 0; i < l; i++) {
      const scores = Array.from({ length: sk }, (_, j) => {
        let dot = 0;
        for (let c = 0; c < e; c++) dot += rq(b, i, c) * rk(b, j, c);
        let x = dot / Math.sqrt(e);
        if (causal && j > i) x = Number.NEGATIVE_INFINITY;
        if (rm) x += mask!.dtype === 'bool' ? (rm(b, i, j) ? 0 : Number.NEGATIVE_INFINITY) : rm(b, i, j);
        return x;
      });
      const top = Math.max(...scores);
      const ex = scores.map((x) => Math.exp(x - top));
      const total = ex.reduce((a, x) => a + x, 0);
      ex.forEach((x, j) => {
        weights[(n * l + i) * sk + j] = x / total;
      });
    }
  }
  // dropout_p > 0: the weights go through dropout, drawn from the oracles' seed (the op is randomized).
  const p = Number(s.args[3] ?? s.kwargs.dropout_p ?? 0);
  const w = refTensor([...batch, l, sk], q.dtype, weights);
  const dropped = p > 0 ? dropoutRef(w, p, RANDOM_SEED, { feature: false, alpha: false }) : w;
  for (let n = 0; n < numBatch; n++) {
    const b: number[] = [];
    for (let d = nb - 1, r = n; d >= 0; d--) {
      b.unshift(r % batch[d]);
      r = Math.floor(r / batch[d]);
    }
    for (let i = 0; i < l; i++)
      for (let c = 0; c < ev; c++) {
        let acc = 0;
        for (let j = 0; j < sk; j++) acc += dropped.re[(n * l + i) * sk + j] * rv(b, j, c);
        out[(n * l + i) * ev + c] = acc;
      }
  }
  return [refTensor([...batch, l, ev], q.dtype, out), dropped];
}

function attentionSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  // A mask that keeps the first key of every query (no row is all -inf) and every third one after it.
  const keepFirst = (l: number, s: number) =>
    exact(
      ctx,
      Array.from({ length: l * s }, (_, i) => Number(i % s === 0 || (i * 7) % 3 === 1)),
      [l, s],
      'bool',
    );
  return [
    sample(make([2, 3, 4]), [make([2, 5, 4]), make([2, 5, 6])], {}, { name: '[2, 3, 4] x [2, 5, 4]' }),
    sample(
      make([3, 4]),
      [make([3, 4]), make([3, 2])],
      { need_attn_weights: true },
      { name: '2-D, need_attn_weights' },
    ),
    sample(
      make([2, 2, 3, 4]),
      [make([2, 2, 3, 4]), make([2, 2, 3, 4])],
      { is_causal: true },
      { name: '4-D, is_causal' },
    ),
    sample(
      make([2, 3, 4]),
      [make([2, 5, 4]), make([2, 5, 2])],
      { attn_mask: keepFirst(3, 5) },
      { name: 'bool mask' },
    ),
    sample(
      make([2, 3, 4]),
      [make([2, 5, 4]), make([2, 5, 2]), make([3, 5])],
      { dropout_p: 0.0 },
      { name: 'float mask, dropout_p=0' },
    ),
    sample(make([3, 2, 4]), [make([1, 2, 4]), make([2, 3])], {}, { name: 'broadcast batch' }),
    // Randomized: the oracles reseed before each call and the reference replays the draws.
    sample(
      make([2, 3, 4]),
      [make([2, 5, 4]), make([2, 5, 2])],
      { dropout_p: 0.3 },
      { name: 'dropout_p=0.3', draws: true },
    ),
    // An empty query needs no kernel, so it works on any dtype, as in PyTorch: only claimed dtypes get it.
    ...(['bfloat16', 'float32', 'float64'].includes(ctx.dtype)
      ? [sample(make([2, 0, 4]), [make([2, 3, 4]), make([2, 3, 2])], {}, { name: 'no queries' })]
      : []),
  ];
}

function attentionErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const qkv = (): [Tensor, unknown[]] => [f([2, 3, 4]), [f([2, 3, 4]), f([2, 3, 4])]];
  const [q, kv] = qkv();
  return [
    errorCase(
      q,
      kv,
      { dropout_p: 1.5 },
      'E_INVALID_ARGUMENT',
      /dropout probability has to be between 0 and 1, but got 1.5/,
    ),
    errorCase(
      q,
      [...kv, exact(ctx, [1, 1, 1, 1, 1, 1, 1, 1, 1], [3, 3], 'bool')],
      { is_causal: true },
      'E_INVALID_ARGUMENT',
      /Explicit attn_mask should not be set when is_causal=True/,
    ),
    errorCase(q, [f([2, 3, 5]), f([2, 3, 4])], {}, 'E_SHAPE_MISMATCH', /./, 'key size mismatch'),
    errorCase(f([4]), [f([4]), f([4])], {}, 'E_DIM_OUT_OF_RANGE', /Dimension out of range/),
    errorCase(q, [...kv, f([2, 2])], {}, 'E_SHAPE_MISMATCH', /./, 'mask does not broadcast'),
  ];
}

export const NN_ATTENTION_OPINFOS = [
  opInfo({
    name: 'nn.functional._scaled_dot_product_attention',
    op: '_scaled_dot_product_attention',
    family: 'linalg',
    // float16: PyTorch 1.13's cpu has no Half bmm/addmm, and neither has the runtime's matmul.
    dtypes: ['bfloat16', 'float32', 'float64'],
    sampleInputs: attentionSamples,
    ref: attentionRef,
    errorInputs: attentionErrors,
    // bfloat16 rounds the scaled query and key, the scores and the weights before the last product, and its bmm
    // sums step by step in bfloat16 (as PyTorch does; the golden oracle holds it to PyTorch's result): against the
    // float64 definition that is up to 0.34 on outputs near 2 to 5 (measured on the full tier's samples).
    // float32 / float64 differ from PyTorch 1.13 by up to ~120 / ~240 ulps (the numerics view) on outputs small next
    // to their terms (weights @ value mixes signs): the two round their bmm and softmax sums in different orders, and
    // on a random float64 sample each is 25 ulps from the exact result (long double), 4.4e-16 absolute. Rounding,
    // within the default tolerances.
    tolerances: { bfloat16: { rtol: 1.6e-2, atol: 0.4 } },
    flags: { randomized: true },
  }),
];
