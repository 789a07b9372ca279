/**
 * Equivalent mutants in the runtime's replays of PyTorch 1.13's bfloat16 roundings (ops/linalg/product_order.ts, the
 * products' loop choice; ops/nn/bf16_moments.ts and nn/norm/bf16.ts, the normalizations' statistics), each with the
 * reason no input can tell it from the original (format: equivalents.ts).
 */
import type { Equivalent } from './equivalent.ts';

// Casting the result as column- or row-major only picks the frame (C or its transpose) the operands are then
// classified in; the float32 loop is taken for a row-major a times a column-major b in either frame. Checked on
// 2,000,000 random configurations (sizes 1 to 5, row- and column-major, size-1 and zero strides, any out):
// the mutants of the two result checks differ from the original only where k = 1, where both loops give the one
// product rounded once.
export const BF16_EQUIVALENTS: readonly Equivalent[] = [
  {
    file: 'src/runtime/ops/linalg/product_order.ts',
    operator: 'swap-comparison',
    original: 'if (so[0] === 1 && (m === 1 || so[1] >= Math.max(1, n))) tc = false;',
    mutated: 'so[1] > Math.max(1, n)',
    reason:
      'a result with column stride exactly n then falls to the other frame (or to the Fortran copy, the same ' +
      'frame), which classifies a and b alike; the choice differs only for k = 1, where both loops round one product',
  },
  {
    file: 'src/runtime/ops/linalg/product_order.ts',
    operator: 'swap-comparison',
    original: 'else if (so[1] === 1 && (n === 1 || so[0] >= Math.max(1, m))) {',
    mutated: 'so[0] > Math.max(1, m)',
    reason:
      'a row-major result with row stride exactly m is then cast through the Fortran copy, the unswapped frame, ' +
      'which classifies a and b alike (no configuration of the 2,000,000 checked differed)',
  },
  {
    file: 'src/runtime/ops/linalg/product_order.ts',
    operator: 'swap-comparison',
    original: "if (db === 1 && da <= 2) return 'steps';",
    mutated: 'da < 2',
    reason:
      'matmul of a matrix and a vector then reaches the batched path, where the vector expands to a k x k operand ' +
      'of stride 0 along k: addmm_impl_cpu_ clones it, a non-transposed operand, and the loop steps as mv does',
  },
  {
    file: 'src/runtime/ops/nn/norm/bf16_moments.ts',
    operator: 'swap-comparison',
    original: 'for (let l = 0; l < LANES; l++) {',
    mutated: 'l <= LANES',
    reason:
      'lane 16 reads past the 16-entry Float64Arrays (undefined, so NaN arithmetic) and writes past their end: ' +
      "dropped (in the chunk loop its read of the next vector's first element only feeds that dropped write)",
  },
  {
    file: 'src/runtime/ops/nn/norm/bf16_moments.ts',
    operator: 'swap-comparison',
    original: 'const ceilLog2 = (x: number) => (x <= 2 ? Math.max(x - 1, 0) : Math.ceil(Math.log2(x)));',
    mutated: 'x < 2',
    reason: 'x = 2 then takes Math.ceil(Math.log2(2)) = 1, which is max(2 - 1, 0)',
  },
  {
    file: 'src/runtime/ops/nn/norm/bf16_moments.ts',
    operator: 'narrow-accumulator',
    original:
      'const empty = (): Moments => ({ n: 0, m1: new Float64Array(LANES), m2: new Float64Array(LANES) });',
    mutated: 'm1: new Float32Array(LANES)',
    reason: 'every value stored in a lane is 0 or rounded to bfloat16 first, so float32 holds it exactly',
  },
  {
    file: 'src/runtime/ops/nn/norm/bf16_moments.ts',
    operator: 'narrow-accumulator',
    original:
      'const empty = (): Moments => ({ n: 0, m1: new Float64Array(LANES), m2: new Float64Array(LANES) });',
    mutated: 'm2: new Float32Array(LANES)',
    reason: 'every value stored in a lane is 0 or rounded to bfloat16 first, so float32 holds it exactly',
  },
  {
    file: 'src/runtime/ops/nn/norm/bf16.ts',
    operator: 'swap-comparison',
    original: 'for (let i = 0; i < rows; i++) {',
    mutated: 'i <= rows',
    reason:
      'the extra row reads past the rows (NaN statistics) and writes entry `rows` of the three statistics, one ' +
      'past the end of their Float32Arrays: dropped',
  },
  {
    file: 'src/runtime/ops/nn/norm/bf16.ts',
    operator: 'swap-comparison',
    original: 'for (let j = 0; j < n; j++) row[j] = read(data, xc.storageOffset + i * n + j);',
    mutated: 'j <= n',
    reason:
      "row[n] is past the end of the Float64Array(n): the write of the next row's first element is dropped",
  },
  {
    file: 'src/runtime/ops/nn/norm/bf16.ts',
    operator: 'narrow-accumulator',
    original: 'const row = new Float64Array(n);',
    mutated: 'Float32Array',
    reason: 'the row holds bfloat16 values, which float32 holds exactly',
  },
  {
    file: 'src/runtime/ops/nn/norm/layer_norm.ts',
    operator: 'swap-comparison',
    original: "if (x.dtype === 'bfloat16' && x.device === 'cpu' && x.numel > 0 && !isChannelsLast(x))",
    mutated: 'x.numel >= 0',
    reason:
      "an empty input then takes the bfloat16 path, whose output is as empty and as shaped (the decomposition's " +
      'reshape of the same input); group_norm returns no statistics',
  },
];
