/**
 * Equivalent mutants in the bfloat16 products' loop choice (ops/product_order.ts, PyTorch 1.13's
 * addmm_impl_cpu_ replayed on strides), each with the reason no input can tell it from the original (format:
 * equivalents.ts).
 */
import type { Equivalent } from './equivalent.ts';

// Casting the result as column- or row-major only picks the frame (C or its transpose) the operands are then
// classified in; the float32 loop is taken for a row-major a times a column-major b in either frame. Checked on
// 2,000,000 random configurations (sizes 1 to 5, row- and column-major, size-1 and zero strides, any out):
// the mutants of the two result checks differ from the original only where k = 1, where both loops give the one
// product rounded once.
export const PRODUCT_EQUIVALENTS: readonly Equivalent[] = [
  {
    file: 'src/runtime/ops/product_order.ts',
    operator: 'swap-comparison',
    original: 'if (so[0] === 1 && (m === 1 || so[1] >= Math.max(1, n))) tc = false;',
    mutated: 'so[1] > Math.max(1, n)',
    reason:
      'a result with column stride exactly n then falls to the other frame (or to the Fortran copy, the same ' +
      'frame), which classifies a and b alike; the choice differs only for k = 1, where both loops round one product',
  },
  {
    file: 'src/runtime/ops/product_order.ts',
    operator: 'swap-comparison',
    original: 'else if (so[1] === 1 && (n === 1 || so[0] >= Math.max(1, m))) {',
    mutated: 'so[0] > Math.max(1, m)',
    reason:
      'a row-major result with row stride exactly m is then cast through the Fortran copy, the unswapped frame, ' +
      'which classifies a and b alike (no configuration of the 2,000,000 checked differed)',
  },
  {
    file: 'src/runtime/ops/product_order.ts',
    operator: 'swap-comparison',
    original: "if (db === 1 && da <= 2) return 'steps';",
    mutated: 'da < 2',
    reason:
      'matmul of a matrix and a vector then reaches the batched path, where the vector expands to a k x k operand ' +
      'of stride 0 along k: addmm_impl_cpu_ clones it, a non-transposed operand, and the loop steps as mv does',
  },
];
