/**
 * Equivalent mutants, declared with a reason: edits that cannot change any observable result (the mutant is
 * not run and does not count in the score). Matched by file, operator and the text of the original and mutated
 * lines, so a declaration survives lines moving. Each reason says why no input can tell the two apart.
 */
import type { Mutant } from './generate.ts';

export interface Equivalent {
  readonly file: string;
  readonly operator: string;
  /** A substring of the original line. */
  readonly original: string;
  /** A substring of the mutated line (absent: any mutant of that line by that operator). */
  readonly mutated?: string;
  /** A substring the mutant removed (the original has it, the mutated line no longer does). */
  readonly dropped?: string;
  readonly reason: string;
}

export const EQUIVALENTS: readonly Equivalent[] = [
  {
    file: 'src/runtime/ops/nn/conv_gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let j0 = 0; j0 < m; j0 += ',
    reason:
      'j0 reaches m only when m is a multiple of the block width, and then the extra block is jb = 0 columns wide: ' +
      'its loops store nothing',
  },
  {
    file: 'src/runtime/ops/nn/conv_gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < n; i += 4) {',
    reason:
      'i reaches n only when n is a multiple of 4, and then the extra row block has rows = 0: its accumulators read ' +
      'past the weights (undefined in JS, no throw) and the store loop over r < rows writes nothing',
  },
  {
    file: 'src/runtime/ops/nn/conv_gemm.ts',
    operator: 'swap-comparison',
    original: 'r1 = rows > 1 ? r0 + wrs : r0, r2 = rows > 2',
    reason:
      'each `rows > k` only picks the row pointer of row k, and at rows == k that row is past the block: its ' +
      'accumulator reads other (or no) weights but is never stored (the store loops over r < rows) and is reset ' +
      'for the next block',
  },
  {
    file: 'src/runtime/ops/nn/conv_gemm.ts',
    operator: 'swap-comparison',
    original: 'for (let j = 0; j < jb; j++) O[base + j * ocs] = acc[j];',
    reason:
      'the extra store writes column j0 + jb of the same output row: the next column block, which overwrites it ' +
      'when it is computed, or past the end of the output after the last block (dropped by the typed array)',
  },
  {
    file: 'src/runtime/ops/nn/ctc_loss_kernels.ts',
    operator: 'swap-comparison',
    original: 'for (let b = 0; b < batch; b++) offsets.push(b * targets.strides[0]);',
    reason: 'the extra offsets[batch] entry is never read: every reader loops over b < batch',
  },
  {
    file: 'src/runtime/ops/nn/ctc_loss_kernels.ts',
    operator: 'swap-comparison',
    original: 'for (let b = 0; b < k.batch; b++) {',
    reason:
      'input and target lengths are checked to have exactly batch entries, so for b = batch they are undefined: ' +
      'every time and label loop bound is then false, and the few writes use NaN indices, which typed arrays ' +
      'ignore; nothing throws',
  },
  {
    file: 'src/runtime/ops/nn/loss_class.ts',
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
    file: 'src/runtime/ops/pointwise/round_decimals.ts',
    operator: 'swap-comparison',
    original: 'return decimals > 0',
    mutated: 'return decimals >= 0',
    reason: 'decimals === 0 returned two lines above (plain round), so decimals is never 0 here',
  },
  {
    file: 'src/runtime/ops/nn/conv_cpu.ts',
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
    file: 'src/runtime/ops/view_helpers.ts',
    operator: 'swap-comparison',
    original: 'i < ndim; i++) if (order[i] < 0)',
    mutated: 'i <= ndim; i++)',
    reason:
      'the extra pass reads order[ndim], undefined in an array of length ndim: undefined < 0 is false, so ' +
      'nothing is assigned and the array does not grow',
  },
  {
    file: 'src/runtime/ops/nn/pool_windows.ts',
    operator: 'swap-comparison',
    original: 'for (let o = 0; o < outSize; o++)',
    mutated: 'o <= outSize',
    reason:
      'the extra pass reads start[outSize] past the end of its Int32Array (undefined): the inner loop test ' +
      'undefined < NaN is false, so nothing is written',
  },
  {
    file: 'src/runtime/ops/nn/pad.ts',
    operator: 'swap-comparison',
    original: "if (l > 0) mid = t('narrow'",
    mutated: 'l >= 0',
    reason:
      'the only new case, l = 0, narrows mid to its full extent from 0: the same shape, strides and offset, a view ' +
      'of the same elements',
  },
  {
    file: 'src/runtime/backends/webgpu/pool.ts',
    operator: 'swap-comparison',
    original: 'w0 >= w1',
    mutated: 'w0 > w1',
    reason:
      'w0 == w1 cannot happen: the op checks kernel >= 1, stride >= 1, pad <= kernel / 2 and the output-size rule ' +
      'before the kernel runs, so every window start is below W and its clipped end above it (w0 < w1 always)',
  },
  {
    file: 'src/runtime/autograd/derivatives/shape_index.ts',
    operator: 'remove-correction',
    original: 'return [self, null, sumToSize(value, c.shapes.value)];',
    reason:
      "masked_fill's value tensor is always 0-dim (maskedFillMeta raises for any other rank, on every device) and " +
      'the full sum above is 0-dim: sumToSize(g, []) returns g unchanged, so the call is the identity here',
  },
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
