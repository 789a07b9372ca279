/**
 * Equivalent mutants in the runtime's nn kernels (swap-comparison), each with the reason no input can tell it
 * from the original (format: equivalents.ts). Found by reviewing every swap-comparison mutant under
 * src/runtime/ops/nn; each declared one was run (60 instances) and survived.
 */
import type { Equivalent } from './equivalent.ts';

export const NN_EQUIVALENTS: readonly Equivalent[] = [
  {
    file: 'src/runtime/ops/nn/attention/attention.ts',
    operator: 'swap-comparison',
    original: "if (dropout > 0) attn = t('dropout'",
    reason:
      'the mutant adds only dropout_p = 0 (or -0), where dropout checks p (0 passes, random.ts:93) and returns its ' +
      'input itself (random.ts:114: p === 0): attn is unchanged, no draw is made',
  },
  {
    file: 'src/runtime/ops/nn/conv/gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let j = 0; j < jb; j++) {',
    reason:
      'the extra pass (j = jb) of either accumulation loop adds into a0..a3[jb]: past the end of the 512-long ' +
      'Float64Arrays when jb = 512 (dropped), else a slot the store loop (j < jb) never reads and the next row ' +
      'block zeroes; its reads past cols are undefined (NaN), no throw',
  },
  {
    file: 'src/runtime/ops/nn/conv/cpu.ts',
    operator: 'swap-comparison',
    original: 'q = dst + lo * w; y2 < hi; y2++, src += step)',
    reason:
      'the complex im2col copy writes one more element at dst + hi * w: the fill on the next line (zeros from ' +
      'dst + hi * w) or, when hi = o2, the next segment (every segment writes all its o2 elements) overwrites it, ' +
      'and after the last segment it is past the end of the exactly sized Float32/64Array cols (dropped); reads ' +
      'past x are undefined in a float array, no throw',
  },
  {
    file: 'src/runtime/ops/nn/loss/ctc_kernels.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < alpha.length; i++) write(logAlpha',
    reason:
      'the extra write stores alpha[alpha.length] (undefined) at index batch * T * width of logAlpha, a fresh ' +
      'exactly sized float32/float64 cpu tensor (t empty, line 189): past its end, dropped',
  },
  {
    file: 'src/runtime/ops/nn/distance/distance.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i + 1 < n; i++) {',
    reason:
      'the extra pass (i = n - 1) appends the norm of narrow(self, 0, n - 1, 1) - narrow(self, 0, n, 0), a [0, m] ' +
      'difference: an empty [0] part, which leaves the cat unchanged; it has the shape and dtype of parts[0] ' +
      '(line 104, computed first), so it raises only where parts[0] already did, and its gradient is zeros (a ' +
      'zero added to a row that already sums a +0 term from another narrow)',
  },
  {
    file: 'src/runtime/ops/nn/embedding/embedding_bag.ts',
    operator: 'swap-comparison',
    original: 'if (offs.length > 0 && last > n)',
    mutated: 'offs.length >= 0',
    reason:
      'the new case, empty offsets, has last = offs[-1], undefined: undefined > n is false, no throw either way',
  },
  {
    file: 'src/runtime/ops/nn/embedding/embedding_bag.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < n; i++) {',
    reason:
      'the extra pass only advances the local k and writes bag[n], past the end of the Int32Array(n) (dropped)',
  },
  {
    file: 'src/runtime/ops/nn/embedding/embedding_bag.ts',
    operator: 'swap-comparison',
    original: 'while (k + 1 < offs.length && offs[k + 1] <= i) k++;',
    mutated: 'k + 1 <= offs.length',
    reason:
      'at k + 1 = offs.length the mutant reads offs[offs.length], undefined in the plain array: undefined <= i is ' +
      'false, so the loop stops where the original does',
  },
  {
    file: 'src/runtime/ops/nn/embedding/embedding_bag.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < idx.length; i++) {',
    reason:
      'the extra pass has g = bag[n] and idx[n] undefined: g >= numBags and idx === padding are false, every row ' +
      'offset and o are NaN, so the max test (size[undefined] === 0, v > undefined) is false and acc[NaN] += is a ' +
      'no-op on the Float64Array; size[undefined]++ sets a non-index property that neither length nor the int64 ' +
      'copies see',
  },
  {
    file: 'src/runtime/ops/nn/embedding/embedding_bag.ts',
    operator: 'swap-comparison',
    original: 'for (let o = 0; o < acc.length; o++) {',
    reason:
      'the extra write (o = numBags * d) lands past the end of out, a fresh exactly sized [numBags, d] cpu tensor ' +
      '(line 158): dropped',
  },
  {
    file: 'src/runtime/ops/nn/resample/grid_sample.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 2; i < input.ndim; i++)',
    reason: 'the extra pass reads input.shape[input.ndim], undefined: undefined <= 0 is false, no throw',
  },
  {
    file: 'src/runtime/ops/nn/loss/margin_multilabel.ts',
    operator: 'swap-comparison',
    original: 'if (z > 0) sum += z;',
    reason:
      'at z = +-0 the mutant adds a zero to sum, which starts at +0 and only ever gains non-negative terms (never ' +
      '-0): the sum is unchanged',
  },
  {
    file: 'src/runtime/ops/nn/loss/margin_multilabel.ts',
    operator: 'swap-comparison',
    original: 'i < isTarget.length; i++) write(isTargetOut',
    reason:
      'the extra write lands past the end of isTargetOut, a fresh cpu tensor of the target shape (line 99) and of ' +
      'exactly isTarget.length elements; the out= variants copy from it: dropped',
  },
  {
    file: 'src/runtime/ops/nn/loss/margin_multilabel.ts',
    operator: 'swap-comparison',
    original: 'i < counts.length; i++) write(countHost',
    reason:
      'the extra write lands past the end of countHost, a fresh [n, c, 1] tensor of n * c elements: dropped',
  },
  {
    file: 'src/runtime/ops/nn/loss/regression.ts',
    operator: 'swap-comparison',
    original: 'else if (!(v.dim() > 0 && sameShape(rows',
    reason:
      'the new case, a 0-dim var, reads v.shape[v.dim() - 1] = v.shape[-1], undefined, never === 1: the negated ' +
      'conjunction stays true and raises the same error',
  },
  {
    file: 'src/runtime/ops/nn/pad/pad.ts',
    operator: 'swap-comparison',
    original: "if (l < 0) crop = t('narrow'",
    reason:
      'the only new case, l = 0, narrows crop to its full extent from -0: the same shape, strides and offset (a ' +
      'view of the same elements; narrow backward is a slice_scatter copy) and `positive` is not touched, as l ' +
      '=== 0 skips the else branch',
  },
  {
    file: 'src/runtime/ops/nn/pad/pad.ts',
    operator: 'swap-comparison',
    original: "if (r < 0) crop = t('narrow'",
    reason:
      'the only new case, r = 0, narrows crop to its full extent from 0: the same shape, strides and offset, and ' +
      '`positive` is not touched, as r === 0 skips the else branch',
  },
  {
    file: 'src/runtime/ops/nn/pad/pad.ts',
    operator: 'swap-comparison',
    original: "if (r > 0) mid = t('narrow'",
    mutated: 'r >= 0',
    reason:
      'the only new case, r = 0, narrows mid to its full extent from 0: the same shape, strides and offset, a view ' +
      'of the same elements',
  },
  {
    file: 'src/runtime/ops/nn/pad/pad.ts',
    operator: 'swap-comparison',
    original: 'for (let row = out.numel / w; row > 0; row--) {',
    reason:
      'after the last row every pos[d] has wrapped to 0, so the extra pass copies row 0 again from the same ' +
      'source elements: the same values (out never shares storage with self here: an aliased out= is written ' +
      'through a temporary, out_write.ts:58, and empty outputs returned at line 110)',
  },
  {
    file: 'src/runtime/ops/nn/pool/geometry.ts',
    operator: 'swap-comparison',
    original: 'if (s.some((x) => x <= 0))',
    reason:
      'a zero stride never reaches this line: pooledSize (called for every dim at line 141, strides spread to one ' +
      'per dim) raises "stride should not be zero" first (line 92), so x <= 0 and x < 0 agree here',
  },
  {
    file: 'src/runtime/ops/nn/pool/geometry.ts',
    operator: 'swap-comparison',
    original: 'for (let i = ndim === 5 ? 1 : 0; i < ndim; i++)',
    reason: 'the extra pass reads shape[ndim], undefined, never === 0: the empty-dim check cannot fire',
  },
  {
    file: 'src/runtime/ops/nn/resample/upsample_kernel.ts',
    operator: 'swap-comparison',
    original: 'for (let e = 0; e < planeSize; e++) {',
    reason:
      'after the last element the carry loop has reset pos to all 0 and outAt to the plane base, so the extra ' +
      'pass writes element 0 again with the same value (x is unchanged: an out= sharing its storage is written ' +
      'through a temporary, out_write.ts:58; planeSize > 0 by the size check of upsample.ts:76)',
  },
  {
    file: 'src/runtime/ops/nn/resample/upsample_kernel.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < x.numel; i++) write(x.storage.data!, i, value(i));',
    reason:
      'the extra write goes past the end of x, a fresh exactly sized cpu tensor (line 98): dropped; value(numel) ' +
      'only reads past Int32/Float64Arrays (undefined) and the int64 writer maps that to i64Min, no throw',
  },
  {
    file: 'src/runtime/ops/nn/resample/upsample_kernel.ts',
    operator: 'swap-comparison',
    original: 'tp.index[at(o) < 0 ? tp.start[o] : at(o)]',
    reason:
      'at(o) = 0 only when tp.start[o] + j = 0 (both non-negative), i.e. tp.start[o] = 0: both branches read ' +
      'tp.index[0]',
  },
  {
    file: 'src/runtime/ops/nn/resample/upsample_taps.ts',
    operator: 'swap-comparison',
    original: 'return !cubic && src < 0 ? 0 : src;',
    reason:
      'src is r(a - 0.5) (fround or identity), never -0 (an exact difference rounds to +0): at src = 0 both ' +
      'return +0',
  },
  {
    file: 'src/runtime/ops/nn/resample/upsample_taps.ts',
    operator: 'swap-comparison',
    original: 'const support = scale >= 1 ?',
    reason: 'at scale = 1 both branches give size / 2 ((size / 2) * 1 is exact)',
  },
  {
    file: 'src/runtime/ops/nn/resample/upsample_taps.ts',
    operator: 'swap-comparison',
    original: 'const invscale = scale >= 1 ?',
    reason: 'at scale = 1 both branches give 1 (1 / 1 is exact)',
  },
];
