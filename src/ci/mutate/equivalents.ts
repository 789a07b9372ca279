/**
 * Equivalent mutants, declared with a reason: edits that cannot change any observable result (the mutant is
 * not run and does not count in the score). Matched by file, operator and the text of the original and mutated
 * lines, so a declaration survives lines moving. Each reason says why no input can tell the two apart.
 */
import type { Equivalent } from './equivalent.ts';
import { BF16_EQUIVALENTS } from './equivalents_bf16.ts';
import { CORE_EQUIVALENTS } from './equivalents_core.ts';
import { NN_EQUIVALENTS } from './equivalents_nn.ts';
import { SORTING_EQUIVALENTS } from './equivalents_sorting.ts';
import type { Mutant } from './generate.ts';

export type { Equivalent };

export const EQUIVALENTS: readonly Equivalent[] = [
  ...['src/runtime/backends/cpu/codegen.ts', 'src/runtime/backends/cpu/elements.ts'].flatMap(
    (file): Equivalent[] => [
      {
        file,
        operator: 'swap-comparison',
        original: 'v < 2147483648 ?',
        mutated: 'v <= 2147483648 ?',
        reason:
          'at v = 2^31 the mutant gives trunc(v) = 2^31 where the original gives -2^31: equal mod 2^32, and every ' +
          'use wraps to 32 bits (an Int32Array store, or a reduction that accumulates then wraps)',
      },
      {
        file,
        operator: 'swap-comparison',
        original: 'Math.abs(v) < 2 ** 63 ?',
        mutated: 'Math.abs(v) <= 2 ** 63 ?',
        reason:
          'at |v| = 2^63 the mutant gives BigInt(+-2^63), which the BigInt64Array it is stored into wraps to -2^63: ' +
          'i64Min, what the original gives',
      },
    ],
  ),
  {
    file: 'src/runtime/ops/indexing/indexing.ts',
    operator: 'swap-comparison',
    original: 'for (let d = 0; d < s.length; d++) {',
    reason:
      'the extra iteration reads ix[s.length] and s[s.length], both undefined: its comparisons are false, no throw',
  },
  {
    file: 'src/runtime/ops/nn/pad/pad.ts',
    operator: 'swap-comparison',
    original: 'for (let d = nd - pad.length / 2; d < nd; d++) {',
    reason:
      "the extra iteration reads pad[-2] and pad[-1], undefined: both '> 0' tests are false, so it narrows nothing",
  },
  {
    file: 'src/runtime/ops/pointwise/arith/scalar_math.ts',
    operator: 'swap-comparison',
    original: 'return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;',
    reason: 'a <= 0n differs from a < 0n only at a = 0n, where a % b === 0n already made the && false',
  },
  {
    file: 'src/runtime/ops/pointwise/arith/zero_divisor.ts',
    operator: 'swap-comparison',
    original: 'return lo >= tlo && hi <= thi;',
    reason:
      'the bounds tie only for the same dtype or between unsigned types and bool (the integral maxima 1, 255, 127, ' +
      '32767, 2^31 - 1, 2^63 - 1 are distinct): the mutant then takes the mask path, whose mask covers every bit ' +
      'of the dtype, so both paths raise on exactly the zero divisors',
  },
  {
    file: 'src/runtime/ops/pointwise/arith/zero_divisor.ts',
    operator: 'drop-guard',
    original: 'if ((BigInt(data[i]) & mask) === 0n) throw zeroDivisionError(op);',
    reason:
      'the mask path serves only a broadcast 0-dim divisor, and the kernel raises the same E_ZERO_DIVISION at its ' +
      'first element before writing anything',
  },
  ...[
    ['src/runtime/ops/nn/pool/adaptive.ts', 'for (let d = first; d < x.ndim; d++)'],
    ['src/runtime/ops/nn/pool/fractional.ts', 'for (let d = 1; d < x.ndim; d++)'],
    ['src/runtime/ops/nn/pool/unpool.ts', 'for (let i = x.ndim === nd + 2 ? 1 : 0; i < x.ndim; i++)'],
  ].map(
    ([file, original]): Equivalent => ({
      file,
      operator: 'swap-comparison',
      original,
      reason:
        'the extra iteration reads x.shape[x.ndim], which is undefined, never === 0: the empty-dim check cannot fire',
    }),
  ),
  {
    file: 'src/runtime/ops/nn/pool/fractional.ts',
    operator: 'swap-comparison',
    original: 'if (outSize > 1) {',
    reason: 'at outSize = 1 the block computes alpha and loops i < 0 times: nothing it writes is read',
  },
  {
    file: 'src/runtime/ops/nn/pool/fractional.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < outSize - 1; i++)',
    reason: 'the extra iteration writes start[outSize - 1], which the next line always overwrites',
  },
  {
    file: 'src/runtime/ops/nn/pool/fractional.ts',
    operator: 'swap-comparison',
    original: 'if (outSize > 0) start[outSize - 1] = inSize - pool;',
    reason: 'at outSize = 0 the mutant writes start[-1] of an empty Int32Array, which a typed array ignores',
  },

  {
    file: 'src/runtime/ops/nn/pool/windows.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < outSize; i++) {',
    reason:
      'the extra iteration writes start[outSize] and size[outSize] past the end of Int32Arrays: dropped',
  },
  {
    file: 'src/runtime/ops/nn/pool/windows.ts',
    operator: 'swap-comparison',
    original: 'for (let a = 0; a < k; a++) {',
    reason:
      'the extra iteration sets size[3] and stride[3] of the 3-element frame arrays, which are only read at ' +
      'indices 0 to 2',
  },
  {
    file: 'src/runtime/ops/nn/conv/gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let j0 = 0; j0 < m; j0 += ',
    reason:
      'j0 reaches m only when m is a multiple of the block width, and then the extra block is jb = 0 columns wide: ' +
      'its loops store nothing',
  },
  {
    file: 'src/runtime/ops/nn/conv/gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < n; i += 4) {',
    reason:
      'i reaches n only when n is a multiple of 4, and then the extra row block has rows = 0: its accumulators read ' +
      'past the weights (undefined in JS, no throw) and the store loop over r < rows writes nothing',
  },
  {
    file: 'src/runtime/ops/nn/conv/gemm.ts',
    operator: 'swap-comparison',
    original: 'r1 = rows > 1 ? r0 + wrs : r0, r2 = rows > 2',
    reason:
      'each `rows > k` only picks the row pointer of row k, and at rows == k that row is past the block: its ' +
      'accumulator reads other (or no) weights but is never stored (the store loops over r < rows) and is reset ' +
      'for the next block',
  },
  {
    file: 'src/runtime/ops/nn/conv/gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let j = 0; j < jb; j++) O[base + j * ocs] = acc[j];',
    reason:
      'the extra store writes column j0 + jb of the same output row: the next column block, which overwrites it ' +
      'when it is computed, or past the end of the output after the last block (dropped by the typed array)',
  },
  {
    file: 'src/runtime/ops/nn/loss/ctc_kernels.ts',
    operator: 'swap-comparison',
    original: 'for (let b = 0; b < batch; b++) offsets.push(b * targets.strides[0]);',
    reason: 'the extra offsets[batch] entry is never read: every reader loops over b < batch',
  },
  {
    file: 'src/runtime/ops/nn/loss/ctc_kernels.ts',
    operator: 'swap-comparison',
    original: 'for (let b = 0; b < k.batch; b++) {',
    reason:
      'input and target lengths are checked to have exactly batch entries, so for b = batch they are undefined: ' +
      'every time and label loop bound is then false, and the few writes (forward and backward alike) use NaN ' +
      'indices or land past the exactly sized per-batch arrays, which typed arrays ignore; nothing throws',
  },
  {
    file: 'src/runtime/ops/nn/loss/class.ts',
    operator: 'swap-comparison',
    original: 'smoothing > 0 ? t(',
    mutated: 'smoothing >= 0 ?',
    reason:
      'smoothing is never negative here, and at 0 the mutant computes target * 1 + 0 / C: the same values (a -0 ' +
      'target becomes +0, which no sum or comparison tells apart)',
  },
  {
    file: 'src/runtime/backends/cpu/iterator.ts',
    operator: 'swap-comparison',
    original: 'for (let i0 = 0; i0 < sizes[0]; i0 += TILE) {',
    mutated: 'i0 <= sizes[0]',
    reason:
      'i0 steps by TILE from 0, so it equals sizes[0] only when sizes[0] is a multiple of TILE, and then the extra ' +
      'tile has ni = min(TILE, sizes[0] - i0) = 0 rows: every row kernel loops over its n elements, so it does nothing',
  },
  {
    file: 'src/runtime/ops/pointwise/rounding/round_decimals.ts',
    operator: 'swap-comparison',
    original: 'return decimals > 0',
    mutated: 'return decimals >= 0',
    reason: 'decimals === 0 returned two lines above (plain round), so decimals is never 0 here',
  },
  {
    file: 'src/runtime/ops/nn/conv/cpu.ts',
    operator: 'drop-offset',
    original: 'out.storageOffset',
    dropped: 'out.storageOffset',
    reason:
      "convForward / convTransposed write only convolution's own fresh output (outputTensor: offset 0); there is " +
      'no convolution.out to hand them a view',
  },
  {
    file: 'src/runtime/core/storage.ts',
    operator: 'swap-comparison',
    original: 'numel < 0) checkStorageSize(',
    mutated: 'numel <= 0) checkStorageSize(',
    reason:
      'the mutant adds only numel = 0, where checkStorageSize(dtype, device, 0, false) re-tests the same ' +
      'condition (false for 0) and, not allocating, checks nothing else: it returns without effect',
  },
  {
    file: 'src/runtime/ops/shape/view_helpers.ts',
    operator: 'swap-comparison',
    original: 'i < ndim; i++) if (order[i] < 0)',
    mutated: 'i <= ndim; i++)',
    reason:
      'the extra pass reads order[ndim], undefined in an array of length ndim: undefined < 0 is false, so ' +
      'nothing is assigned and the array does not grow',
  },
  {
    file: 'src/runtime/ops/nn/pad/pad.ts',
    operator: 'swap-comparison',
    original: "if (l > 0) mid = t('narrow'",
    mutated: 'l >= 0',
    reason:
      'the only new case, l = 0, narrows mid to its full extent from 0: the same shape, strides and offset, a view ' +
      'of the same elements',
  },
  {
    file: 'src/runtime/ops/nn/pad/checks.ts',
    operator: 'drop-guard',
    original: 'if (negative !== undefined)',
    reason:
      'without the check the output allocation raises first with the same code and message ("Trying to create ' +
      'tensor with negative dimension ...": core/shape.ts), before anything is written',
  },
  {
    file: 'src/runtime/ops/nn/pool/pooling.ts',
    operator: 'drop-guard',
    original: "if (x.dtype !== 'float32')",
    reason:
      'checkDType lets only floating dtypes (and int64 for avg) through and webgpu holds float32, int32, uint8 ' +
      'and bool: on webgpu x is always float32 here, so the throw is dead code',
  },
  ...[
    ['src/runtime/ops/pointwise/arith/binary.ts', "if (b === 0) throw zeroDiv('div');"],
    ['src/runtime/ops/pointwise/arith/binary.ts', "if (b === 0) throw zeroDiv('remainder');"],
    ['src/runtime/ops/pointwise/arith/binary.ts', "if (b === 0n) throw zeroDiv('remainder');"],
    ['src/runtime/ops/pointwise/arith/binary.ts', "if (b === 0) throw zeroDiv('fmod');"],
    ['src/runtime/ops/pointwise/arith/binary.ts', "if (b === 0n) throw zeroDiv('fmod');"],
    ['src/runtime/ops/pointwise/arith/scalar_math.ts', "if (b === 0) throw zeroDiv('div');"],
    ['src/runtime/ops/pointwise/arith/scalar_math.ts', "if (b === 0n) throw zeroDiv('div');"],
  ].map(
    ([file, original]): Equivalent => ({
      file,
      operator: 'drop-guard',
      original,
      reason:
        "the row's precheck (checkIntegerDivisor, run by define.ts before any cpu kernel on a non-empty output) " +
        'scans the whole divisor in the integer compute dtype and raises the same error first: the integer ' +
        'kernels never see a zero divisor (an empty output runs no element)',
    }),
  ),
  {
    file: 'src/runtime/ops/factories/create.ts',
    operator: 'drop-guard',
    original: "if (info.kind === 'int' && !Number.isFinite(s.toNumber()))",
    reason:
      'every fill first runs checkFill -> scalarTo, which refuses a non-finite value for an integral dtype with ' +
      'the same code and message',
  },
  {
    file: 'src/runtime/core/storage.ts',
    operator: 'drop-guard',
    original: 'if (!(e instanceof RangeError)) throw e;',
    reason:
      'new TypedArray(n) with a number argument throws nothing but RangeError: the rethrow is dead code',
  },
  ...[
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a line that builds a template
    ['for (let i = 0; i < o.rm; i++) fma.push(`      let a${i} = As[lid.y', 'i <= o.rm', 'a'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a line that builds a template
    ['for (let j = 0; j < o.rn; j++) fma.push(`      let b${j} = Bs[q]', 'j <= o.rn', 'b'],
  ].map(
    ([original, mutated, v]): Equivalent => ({
      file: 'src/runtime/backends/webgpu/tile.ts',
      operator: 'swap-comparison',
      original,
      mutated,
      reason:
        `the extra pass only declares one more WGSL \`let\` (${v}<r>) that no statement reads: a read of ` +
        'workgroup memory has no side effect (WGSL clamps an index past the array), so matmul and convolution ' +
        'compute and store the same values',
    }),
  ),

  {
    file: 'src/runtime/ops/linalg/linalg.ts',
    operator: 'swap-comparison',
    original: 'const k2 = db > 1 ? last(b, 2) : b.shape[0];',
    mutated: 'db >= 1',
    reason:
      'a 1-d other never reaches the batched branch: with da 1 it is dot, with da 2 mv, and with da >= 3 ' +
      'shouldFold(a, 1) is always true (it refuses only for otherDim 2): db >= 2 here, where > 1 and >= 1 agree',
  },
  {
    file: 'src/runtime/backends/cpu/iterator.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < n; i++) {',
    mutated: 'i <= n',
    reason:
      "logicalOffsets' extra pass writes out[n], past the end of its own fresh Float64Array(n) (dropped), and " +
      'only advances its local idx / off, which nothing reads after the loop',
  },
  ...['(a > b ? a : b)', '(a < b ? a : b)'].map(
    (original): Equivalent => ({
      file: 'src/runtime/ops/pointwise/arith/binary.ts',
      operator: 'swap-comparison',
      original: `big: (a: bigint, b: bigint) => ${original}`,
      reason: 'the two choices differ only when a === b, and two equal bigints are the same value',
    }),
  ),
  {
    file: 'src/runtime/backends/webgpu/conv.ts',
    operator: 'swap-comparison',
    original: 'if (r < rows && q < K) {',
    mutated: 'r <= rows',
    reason:
      'the extra weight row r = rows only feeds the accumulators of output row rows, which store() refuses ' +
      '(r >= rows returns before writing); the read itself stays inside the bound buffer or is clamped by ' +
      "WebGPU's robust access",
  },
  {
    file: 'src/runtime/backends/webgpu/matmul.ts',
    operator: 'swap-comparison',
    original: 'TILES.find((t) => n >= 4 * t.tm && m >= 2 * t.tn)',
    reason:
      'only which tile shape runs at a boundary size: every shape stages TK-wide slices of k and accumulates each ' +
      'output over q = 0..K-1 in the same order, so every shape gives the same bits',
  },
  {
    file: 'src/runtime/ops/pointwise/unary_math.ts',
    operator: 'swap-comparison',
    original: 'for (let n = 1; n < 300; n++) {',
    mutated: 'n <= 300',
    reason:
      "erfc's continued fraction runs only for 2.5 <= |x| <= 6 (NaN and |x| > 6 return first), where it converges " +
      'within 55 steps (measured over that range in steps of 0.001): the bound is never reached',
  },
  {
    file: 'src/runtime/ops/factories/ranges.ts',
    operator: 'swap-comparison',
    original: 'const fits = (v: bigint) => v >= -(2n ** 31n) && v < 2n ** 31n;',
    reason:
      "only which of two exact paths writes an int64 arange on webgpu: the i32 kernel's sign-extended values, or " +
      'the host sequence uploaded; at start or last = -2^31 both give the same int64 values',
  },
  ...['a > b ? a : b;', 'a < b ? a : b;'].map(
    (original): Equivalent => ({
      file: 'src/runtime/ops/pointwise/arith/scalar_math.ts',
      operator: 'swap-comparison',
      original: `Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : ${original}`,
      reason:
        'the two choices differ only for a tie of +0 and -0, where the spec itself gives either: PyTorch 1.13 ' +
        "(one thread) returns maximum's and minimum's first operand in its scalar loop (float32 tensors under 16 " +
        'elements, and the tail of longer ones) and the second in its vectorized loop, so no conforming check ' +
        'can require one zero; every other tie is two equal numbers',
    }),
  ),
  {
    file: 'src/runtime/ops/shape/views_index.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < size.length; i++) if (size[i] > 0) span +=',
    mutated: 'i <= size.length',
    reason:
      "the extra iteration reads size[size.length], undefined: 'undefined > 0' is false, span is unchanged",
  },
  {
    file: 'src/runtime/autograd/derivatives/shape_index.ts',
    operator: 'remove-correction',
    original: 'return [self, null, sumToSize(value, c.shapes.value)];',
    reason:
      "masked_fill's value tensor is always 0-dim (maskedFillMeta raises for any other rank, on every device) and " +
      'the full sum above is 0-dim: sumToSize(g, []) returns g unchanged, so the call is the identity here',
  },
  ...CORE_EQUIVALENTS,
  ...NN_EQUIVALENTS,
  ...SORTING_EQUIVALENTS,
  ...BF16_EQUIVALENTS,
];

/** The declared reason `m` is equivalent, or null. */
export function equivalenceOf(m: Mutant, list: readonly Equivalent[] = EQUIVALENTS): string | null {
  const e = list.find(
    (x) =>
      x.file === m.file &&
      x.operator === m.operator &&
      m.original.includes(x.original) &&
      (x.mutated === undefined || m.mutated.includes(x.mutated)) &&
      (x.dropped === undefined || (m.original.includes(x.dropped) && !m.mutated.includes(x.dropped))),
  );
  return e?.reason ?? null;
}
