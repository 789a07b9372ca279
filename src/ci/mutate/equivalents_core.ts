/**
 * Equivalent mutants in the runtime's core, pointwise, reduction and shape code (swap-comparison), each with the
 * reason no input can tell it from the original (format: equivalents.ts). Found by reviewing every
 * swap-comparison mutant of those files; those a check could have killed were run and survived.
 */
import type { Equivalent } from './equivalent.ts';

export const CORE_EQUIVALENTS: readonly Equivalent[] = [
  {
    file: 'src/runtime/core/generator.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 1; i < N; i++) {',
    mutated: 'i <= N',
    reason:
      'the extra pass (i = N) reads mt[N - 1] and writes mt[N], past the end of the Generator-owned ' +
      'Uint32Array(N) (generator.ts:13): the write is dropped',
  },
  {
    file: 'src/runtime/core/generator.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < N; i++) {',
    mutated: 'i <= N',
    reason:
      'the extra twist pass (i = N) only reads (mt[N] is undefined, & gives 0) and writes mt[N], past the end ' +
      'of the owned Uint32Array(N): dropped; mt[0..N-1] are as before',
  },
  {
    file: 'src/runtime/core/layout.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 1; i < nd; i++) {',
    mutated: 'i <= nd',
    reason:
      'the extra pass compares against perm[nd], undefined: st[undefined] and shape[undefined] are undefined, ' +
      'every < / > with them is false, so shouldSwap returns 0 for each d0: no swap, no break, perm unchanged',
  },
  {
    file: 'src/runtime/core/layout.ts',
    operator: 'swap-comparison',
    original: 'if (outShape.length <= 1) return contiguousStrides(outShape);',
    mutated: 'outShape.length < 1',
    reason:
      'for a 1-D outShape the rest of the function is pure and returns stridesInOrder([n], iterationOrder = [0]) ' +
      '= [1], which is contiguousStrides([n])',
  },
  {
    file: 'src/runtime/core/promotion.ts',
    operator: 'swap-comparison',
    original: 'return FLOAT_RANK[a]! > FLOAT_RANK[b]! ? a : b;',
    reason: 'equal ranks returned float32 on the line before (promotion.ts:32), so the ranks never tie here',
  },
  {
    file: 'src/runtime/core/promotion.ts',
    operator: 'swap-comparison',
    original: 'return DTYPE_INFO[a].itemsize >= DTYPE_INFO[b].itemsize ? a : b;',
    reason:
      'only two distinct (promotion.ts:22) integral dtypes other than uint8 (handled at :38) reach here: int8, ' +
      'int16, int32, int64, whose itemsizes 1, 2, 4, 8 never tie',
  },
  {
    file: 'src/runtime/core/storage.ts',
    operator: 'swap-comparison',
    original: 'if (!(numel >= 0 && numel % 1 === 0 && numel * info.itemsize <= maxAllocationBytes()))',
    reason:
      'the new cases (numel = 0, or bytes exactly the limit) only call checkStorageSize(dtype, cpu, numel, true), ' +
      'which for such a count passes its own test (storage.ts:87) and checkAllocation (bytes <= maxBytes): no effect',
  },
  {
    file: 'src/runtime/core/shape.ts',
    operator: 'swap-comparison',
    original: 'if (tensorD > 0) {',
    mutated: 'tensorD >= 0',
    reason:
      'at tensorD = 0 the block resets chunkBaseStride / tensorNumel / viewNumel in the last pass of the loop; ' +
      'after it only viewD and newStrides are read',
  },
  {
    file: 'src/runtime/ops/factories/ranges.ts',
    operator: 'swap-comparison',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a line that builds a template
    original: 'expected: st > 0 ? `>= ${s}` : `<= ${s}`,',
    reason:
      'st === 0 (and -0) threw above (the st === 0 check of arange, ranges.ts) and NaN never reaches the throw: st is never 0 here',
  },
  {
    file: 'src/runtime/ops/factories/ranges.ts',
    operator: 'swap-comparison',
    original: 'if ((st > 0n && e < s) || (st < 0n && e > s)) {',
    mutated: 'st >= 0n && e < s',
    reason:
      'st === 0n threw just above (the st === 0n check of arangeInt64, ranges.ts): st >= 0n is st > 0n here',
  },
  {
    file: 'src/runtime/ops/factories/ranges.ts',
    operator: 'swap-comparison',
    original: 'if ((st > 0n && e < s) || (st < 0n && e > s)) {',
    mutated: 'st <= 0n && e > s',
    reason:
      'st === 0n threw just above (the st === 0n check of arangeInt64, ranges.ts): st <= 0n is st < 0n here',
  },
  {
    file: 'src/runtime/ops/factories/ranges.ts',
    operator: 'swap-comparison',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a line that builds a template
    original: 'expected: st > 0n ? `>= ${s}` : `<= ${s}`,',
    reason: 'st === 0n threw above (the st === 0n check of arangeInt64, ranges.ts): st is never 0n here',
  },
  {
    file: 'src/runtime/ops/factories/ranges.ts',
    operator: 'swap-comparison',
    original: 'const sgn = st > 0n ? 1n : -1n;',
    reason: 'st === 0n threw above (the st === 0n check of arangeInt64, ranges.ts): st is never 0n here',
  },
  {
    file: 'src/runtime/ops/factories/sequence_write.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < t.numel; i++) data[i] = BigInt.asIntN(64, s + st * BigInt(i));',
    reason:
      'both callers pass a fresh contiguous tensor (create -> Tensor.empty, or the host Tensor.empty) whose ' +
      'BigInt64Array holds exactly numel elements: the extra store data[numel] (a bigint, no throw) is dropped',
  },
  {
    file: 'src/runtime/ops/linalg/gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let j = 0; j < m; j++) acc[j] += x0 * B[b0 + j] + x1 * B[b1 + j]',
    reason:
      'the extra pass reads B past the row (a typed-array read: a number or undefined, no throw) and adds into ' +
      'acc[m], past the end of the kernel-local Float64Array(m): dropped',
  },
  {
    file: 'src/runtime/ops/linalg/gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let j = 0, bj = bp; j < m; j++, bj += bcs) acc[j] += x * B[bj];',
    reason:
      'the extra pass only reads B (no throw for numbers) and adds into acc[m], past the end of the local ' +
      'Float64Array(m): dropped',
  },
  {
    file: 'src/runtime/ops/linalg/gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let j = 0; j < m; j++) acc[j] = (acc[j] + Math.imul(x, B[bp + j * b.cs])) | 0;',
    reason:
      'the extra pass reads B (Math.imul of undefined is 0, no throw) and stores acc[m], past the end of the ' +
      'local Int32Array(m): dropped',
  },
  {
    file: 'src/runtime/ops/linalg/gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let j = 0; j < m; j++) acc[j] = step(acc[j], x * read(b.arr, bp + j * b.cs));',
    reason:
      'the extra pass decodes one more half value (f16BitsToNumber / bf16BitsToNumber of any value or undefined ' +
      'do not throw), steps it (roundBf16 of NaN does not throw either) and writes acc[m], past the end of the ' +
      'local Float64Array(m): dropped',
  },
  {
    file: 'src/runtime/ops/nn/activation/pointwise.ts',
    operator: 'swap-comparison',
    original: 'num: (x: number) => x * Math.tanh(x > 20 ? x : Math.log1p(Math.exp(x))),',
    reason:
      'the only new input is x = 20, where tanh(20) and tanh(log1p(exp(20))) = tanh(20.000000002) both round ' +
      'to exactly 1 in float64 (1 - 8.5e-18): both give 20',
  },
  {
    file: 'src/runtime/ops/nn/activation/pointwise.ts',
    operator: 'swap-comparison',
    original: "wgsl: { f32: 'a * tanh(min(select(log(1.0 + exp(a)), a, a > 20.0), 10.0))' },",
    reason:
      'at a = 20 the original picks log(1 + exp(20)) ~ 20 and the mutant a = 20: the min with 10 clamps both to ' +
      '10, so both compute a * tanh(10)',
  },
  {
    file: 'src/runtime/ops/pointwise/arith/binary.ts',
    operator: 'swap-comparison',
    original: 'return r !== 0n && r < 0n !== b < 0n ? r + b : r;',
    reason:
      'r <= 0n differs from r < 0n only at r = 0n, which r !== 0n already excludes; b <= 0n differs only at ' +
      'b = 0n, which threw on the line before',
  },
  {
    file: 'src/runtime/ops/pointwise/arith/scalar_math.ts',
    operator: 'swap-comparison',
    original: 'return r !== 0 && r < 0 !== b < 0 ? r + b : r;',
    reason:
      'r <= 0 differs only at r = +-0, excluded by r !== 0; b <= 0 differs only at b = +-0, where r = a % b is ' +
      'NaN and both return NaN (r, or r + b)',
  },
  {
    file: 'src/runtime/ops/pointwise/arith/scalar_math.ts',
    operator: 'swap-comparison',
    original: 'if (mod !== 0 && b < 0 !== mod < 0) div -= 1;',
    reason:
      'b === 0 (and -0) returned two lines above, and mod <= 0 differs from mod < 0 only at mod = +-0, which ' +
      'mod !== 0 excludes; NaN fails both forms',
  },
  {
    file: 'src/runtime/ops/pointwise/unary_math.ts',
    operator: 'swap-comparison',
    original: 'export const clampLowerBigInt = (x: bigint, lo: bigint) => (x < lo ? lo : x);',
    reason: 'the two choices differ only when x === lo, and two equal bigints are the same value',
  },
  {
    file: 'src/runtime/ops/pointwise/unary_math.ts',
    operator: 'swap-comparison',
    original: 'export const clampUpperBigInt = (x: bigint, hi: bigint) => (hi < x ? hi : x);',
    reason: 'the two choices differ only when x === hi, and two equal bigints are the same value',
  },
  {
    file: 'src/runtime/ops/pointwise/arith/clamp.ts',
    operator: 'swap-comparison',
    original: 'return given.length > 0 && given.every(',
    mutated: 'given.length >= 0',
    reason:
      'the new case is min = max = None: the tensor path then raises the same noneError(op) as the first check ' +
      'of tensorMeta (clamp.ts:143), which every tensor path (meta, tensorCompute) runs first, as the scalar ' +
      'path does at clamp.ts:73',
  },
  {
    file: 'src/runtime/ops/pointwise/arith/unary.ts',
    operator: 'swap-comparison',
    original: 'big: (x: bigint) => (x < 0n ? -x : x),',
    reason: 'the only new case, x = 0n, gives -0n, which is 0n (bigints have no negative zero)',
  },
  {
    file: 'src/runtime/ops/nn/activation/rectifiers.ts',
    operator: 'swap-comparison',
    original: 'big: (x: bigint) => (x > 0n ? x : 0n),',
    reason: 'the only new case, x = 0n, returns x, which is 0n',
  },
  {
    file: 'src/runtime/ops/pointwise/unary_math.ts',
    operator: 'swap-comparison',
    original: 'if (ax > 6) return Math.sign(x);',
    reason:
      'the only new inputs are x = +-6, where the continued fraction gives erfc(6) ~ 2e-17 and 1 - erfc rounds ' +
      'to exactly 1: the original returns +-1, which is Math.sign(x)',
  },
  {
    file: 'src/runtime/ops/pointwise/unary_math.ts',
    operator: 'swap-comparison',
    original: 'for (let n = 1; n < 200; n++) {',
    mutated: 'n <= 200',
    reason:
      'the series reaches n = 200 only when it never broke, i.e. x * x underflows to 0 (|x| < 1.5e-162, x = +-0): ' +
      'every term from n = 1 on is +-0, so the extra term adds +-0 to sum (nonzero, or +0 after n = 1) and changes ' +
      'nothing; for any larger |x| < 2.5 the break fires by n = 41',
  },
  {
    file: 'src/runtime/ops/pointwise/unary_math.ts',
    operator: 'swap-comparison',
    original: 'if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;',
    reason:
      'a tie can only come once the terms are decreasing (earlier terms are far above 1e-17 * sum); the original ' +
      'then adds one more term smaller than 1e-17 * |sum|, under half an ulp of sum, which leaves sum unchanged, ' +
      'and breaks',
  },
  {
    file: 'src/runtime/ops/pointwise/unary_math.ts',
    operator: 'swap-comparison',
    original: 'if (Math.abs(delta - 1) < 1e-16) break;',
    reason:
      '|delta - 1| is exactly a multiple of 2^-53 (delta in [0.5, 2], Sterbenz) or >= 0.5, and the double 1e-16 ' +
      '(0.9007 * 2^-53) is neither: it never equals 1e-16',
  },
  {
    file: 'src/runtime/ops/reductions/engine.ts',
    operator: 'swap-comparison',
    original: 'if (nd <= 2) {',
    mutated: 'nd < 2',
    reason:
      'at nd = 2 the general loop runs call() once, its dim loop (d = 2; d < 2) does nothing and d === nd ' +
      'returns: the same single call',
  },
  {
    file: 'src/runtime/ops/reductions/engine.ts',
    operator: 'swap-comparison',
    original: 'else for (let i = 0; i < n; i += 2) a[i] = init;',
    reason:
      'n is even here (lanes = 2): the extra store a[n] is past the end of the Float64Array(n), dropped',
  },
  {
    file: 'src/runtime/ops/reductions/dims.ts',
    operator: 'swap-comparison',
    original: 'if (w < ndim) mask[w] = true;',
    mutated: 'w <= ndim',
    reason:
      'w = ndim only for a 0-dim input (wrapDim accepts 0 / -1 there): mask becomes [true] instead of [], but ' +
      'every reader indexes reduced by the dims of the input shape, which has none (keepShape.map, checkNonEmpty, ' +
      "norm's findIndex, webgpu foldParams' shape.forEach; alignedStrides' extra 0 is only read per input dim)",
  },
  {
    file: 'src/runtime/ops/reductions/dims.ts',
    operator: 'swap-comparison',
    original: 'for (let d = 0; d < self.ndim; d++) {',
    mutated: 'd <= self.ndim',
    reason:
      'the extra pass reads rs.reduced[ndim] (reduced has ndim entries) and self.shape[ndim], both undefined: ' +
      'the test is false, nothing is thrown',
  },
  {
    file: 'src/runtime/ops/reductions/moments.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < mean.length; i++) mean[i] /= n;',
    reason: 'the extra pass writes mean[length] of a Float64Array (makeAcc): past the end, dropped',
  },
  {
    file: 'src/runtime/ops/reductions/moments.ts',
    operator: 'swap-comparison',
    original: "update: 'if (x > a0 || x !== x) a0 = x;'",
    reason:
      'ties keep the later of two equal values, which differ only as -0 / +0; the max is then used as exp(x - m) ' +
      '(exp(+-0) = 1) and log(s) + m, where both zeros present make s >= 2, log(s) > 0, and log(s) +- 0 agree',
  },
  {
    file: 'src/runtime/ops/reductions/moments.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < max.length; i++) if (Math.abs(max[i]) === Infinity) max[i] = 0;',
    reason: 'the extra pass reads max[length], undefined: Math.abs gives NaN, nothing is written',
  },
  {
    file: 'src/runtime/ops/reductions/norm.ts',
    operator: 'swap-comparison',
    original: "ord > 0 ? 'inf' : '-inf'",
    reason: 'reached only for a non-finite ord (+-inf or NaN), never 0: > 0 and >= 0 agree',
  },
  {
    file: 'src/runtime/ops/reductions/norm.ts',
    operator: 'swap-comparison',
    original: 'if (v > a0 || v !== v) a0 = v;',
    reason: 'v is Math.abs(x) or Math.hypot(xr, xi), never -0, so a tie replaces a0 with the same value',
  },
  {
    file: 'src/runtime/ops/reductions/norm.ts',
    operator: 'swap-comparison',
    original: 'if (v < a0 || v !== v) a0 = v;',
    reason: 'v is Math.abs(x) or Math.hypot(xr, xi), never -0, so a tie replaces a0 with the same value',
  },
  {
    file: 'src/runtime/ops/reductions/sum.ts',
    operator: 'swap-comparison',
    original: 'rs.count > EXACT_F64_COUNT',
    reason:
      'at count = 2^22 the float64 path is still exact (2^22 values of at most 2^31 in magnitude: partial sums ' +
      'within 2^53) and its store wraps like the bigint one (int64 exact, v | 0 then the int8/16/32 or f2u8 store ' +
      '= asIntN / asUintN); the out dtype is the compute dtype (rule dtypeArg)',
  },
  {
    file: 'src/runtime/ops/reductions/sum.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < acc.length; i += 2) {',
    reason:
      'acc.length is even: the extra pass reads acc[length], acc[length + 1] (undefined) and writes them, past ' +
      'the end of the Float64Array accumulator: dropped',
  },
  {
    file: 'src/runtime/ops/reductions/softmax.ts',
    operator: 'swap-comparison',
    original: 'self.ndim > 0 && dim === self.ndim - 1 ?',
    reason: 'the new case ndim = 0 has dim = 0 (wrapped), never ndim - 1 = -1: the same kernel name',
  },
  {
    file: 'src/runtime/ops/reductions/softmax.ts',
    operator: 'swap-comparison',
    original: 'if (x > m || x !== x) m = x;',
    mutated: 'x >= m',
    reason:
      'a tie keeps the later of two equal values, which differ only as -0 / +0: softmax uses exp(x - m) ' +
      '(exp(+-0) = 1); log_softmax x - m - log(s), where both zeros in the line make s >= 2 and +-0 - log(s) agree',
  },
  {
    file: 'src/runtime/ops/reductions/softmax.ts',
    operator: 'swap-comparison',
    original: 'if (self.ndim > 0 && !fastest) {',
    reason: 'for ndim = 0, fastest is [].every(...) = true: !fastest is false either way',
  },
  {
    file: 'src/runtime/ops/reductions/softmax.ts',
    operator: 'swap-comparison',
    original: "update: 'if (x > a0 || x !== x) a0 = x;'",
    reason:
      'ties keep the later of two equal values, which differ only as -0 / +0; the max is used as exp(x - m) ' +
      '(exp(+-0) = 1) and, for log_softmax, m + log(s) with s >= 2 when both zeros are present: the same sum',
  },
  {
    file: 'src/runtime/ops/reductions/softmax.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < max.length; i++) max[i] += logOf(sum[i]);',
    reason: 'the extra pass writes max[length] of a Float64Array (makeAcc): past the end, dropped',
  },
  {
    file: 'src/runtime/ops/shape/shape.ts',
    operator: 'swap-comparison',
    original: 'for (let d = 0; d < t.ndim; d++) {',
    mutated: 'd <= t.ndim',
    reason:
      't and valid have the same ndim (checked just above): the extra pass compares t.shape[ndim] with ' +
      'valid.shape[ndim], both undefined, so nothing throws',
  },
  {
    file: 'src/runtime/ops/shape/shape.ts',
    operator: 'swap-comparison',
    original: 'if (n > 0 && t.numel > 0) copyOn(sliceDim(out, dim, offset, offset + n, 1), t);',
    reason:
      'n >= 0 adds only n = 0, where t.numel is 0 anyway; numel >= 0 adds only empty tensors, whose copy into ' +
      'an empty slice of out does nothing (forEachRow / runPointwiseGPU return at numel 0)',
  },
  {
    file: 'src/runtime/ops/shape/shape.ts',
    operator: 'swap-comparison',
    original: 'if (start > 0) next.push(',
    mutated: 'start >= 0',
    reason:
      'at start = 0 the extra block pairs two empty slices (size..size, 0..0), which the copy loop skips ' +
      '(o.numel > 0) and further dims only slice into more empty views',
  },
  {
    file: 'src/runtime/ops/shape/shape.ts',
    operator: 'swap-comparison',
    original: 'for (const [o, s] of blocks) if (o.numel > 0) copyOn(o, s);',
    reason:
      'rollImpl returned for an empty out (shape.ts:175) and with start > 0 every block is non-empty: ' +
      'o.numel is never 0 here',
  },
  {
    file: 'src/runtime/ops/shape/shape.ts',
    operator: 'swap-comparison',
    original: 'if (self.ndim < 2) wrapDim(-2, self.ndim, op);',
    reason: 'the new case ndim = 2: wrapDim(-2, 2) is in range, returns 0 (unused) and throws nothing',
  },
  {
    file: 'src/runtime/ops/shape/views_index.ts',
    operator: 'swap-comparison',
    original: 'if (size[i] > 0) span += (size[i] - 1) * stride[i];',
    mutated: 'size[i] >= 0',
    reason:
      'the new case is a size of 0, where numelOf(size) is 0: the bounds check on the next line is skipped and ' +
      'span is not used again',
  },
  {
    file: 'src/runtime/ops/shape/views_index.ts',
    operator: 'swap-comparison',
    original: 'if (off >= 0) {',
    mutated: 'off > 0',
    reason:
      'off = 0 (or -0) takes the other branch: diagSize = max(min(shape[d1] + 0, shape[d2]), 0) is the same, and ' +
      'storageOffset -= 0 * stride leaves it unchanged, as += 0 * stride did',
  },
];
