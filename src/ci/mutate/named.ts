/**
 * Named mutants: the bugs issue 20 found the matrix blind to, kept as data so `opgate mutate --named` shows each
 * one killed by the matrix for as long as the samples and checks that close its gap stay in place. `find` must
 * occur exactly once in the file; `instances` are the matrix instances that must kill it (they run instead of
 * target determination's selection); `tests` lists test files that also run for it (end-to-end runs that read
 * what the file writes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CiError } from '../errors.ts';
import { type Mutant, mutantId } from './generate.ts';

export interface NamedMutant {
  readonly name: string;
  readonly operator: string;
  readonly file: string;
  readonly find: string;
  readonly replace: string;
  readonly tests?: readonly string[];
  /** The matrix instances that must kill it (run instead of target determination's selection). */
  readonly instances: readonly string[];
  /** The oracles (or 'unit') expected among its killers. */
  readonly killers: readonly string[];
  /** Its proof takes minutes (an end-to-end run): `npm test` leaves it to `opgate mutate --named` (nightly). */
  readonly slow?: boolean;
}

export const NAMED_MUTANTS: readonly NamedMutant[] = [
  {
    // The SIMD float32 max keeps each lane's minimum (pmin for pmax).
    name: 'wasm-max-as-min',
    operator: 'swap-comparison',
    file: 'src/runtime/backends/cpu/wasm/extreme.ts',
    find: '{ max: op.simd(0xeb), min: op.simd(0xea) }',
    replace: '{ max: op.simd(0xea), min: op.simd(0xea) }',
    instances: ['test_reference_amax_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // The SIMD column sum (a float32 reduction over an outer dim) adds each row vector's low half twice.
    name: 'wasm-colsum-drops-high-half',
    operator: 'drop-stride-term',
    file: 'src/runtime/backends/cpu/wasm/reduce.ts',
    find: '...widenInto(16, [...op.get(R), ...op.get(R), ...op.highHalf]),',
    replace: '...widenInto(16, [...op.get(R)]),',
    instances: ['test_reference_sum_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // The SIMD column max (amax over an outer dim) keeps each column's minimum (pmin for pmax).
    name: 'wasm-colmax-as-min',
    operator: 'swap-comparison',
    file: 'src/runtime/backends/cpu/wasm/extreme.ts',
    find: '...row, ...PICK[which], ...op.v128Store(0)]',
    replace: '...row, ...PICK.min, ...op.v128Store(0)]',
    instances: ['test_reference_amax_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // argmax / argmin's SIMD path returns the last occurrence of the extreme instead of the first (ties).
    name: 'wasm-argmax-last-tie',
    operator: 'swap-comparison',
    file: 'src/runtime/ops/reductions/minmax.ts',
    find: 'return X.indexOf(m, ix) - ix;',
    replace: 'return X.lastIndexOf(m, ix + n - 1) - ix;',
    instances: ['test_reference_argmax_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // The SIMD pointwise table lowers float32 add to f32x4.sub.
    name: 'wasm-add-f32-as-sub',
    operator: 'swap-comparison',
    file: 'src/runtime/backends/cpu/wasm/pointwise.ts',
    find: 'add: { f32: 0xe4,',
    replace: 'add: { f32: 0xe5,',
    instances: ['test_reference_add_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // The SIMD float32 sum adds each vector's low half twice and never its high half.
    name: 'wasm-sum-drops-high-half',
    operator: 'drop-stride-term',
    file: 'src/runtime/backends/cpu/wasm/reduce.ts',
    find: '...add(acc + 1, [...op.get(V), ...op.get(V), ...op.highHalf]),',
    replace: '...add(acc + 1, [...op.get(V)]),',
    instances: ['test_reference_sum_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // The SIMD softmax's exp reduces by ln 2's high part only (Cody-Waite without the low correction).
    name: 'wasm-softmax-exp-drops-ln2-low-part',
    operator: 'remove-correction',
    file: 'src/runtime/backends/cpu/wasm/softmax.ts',
    find: '0.693359375, -2.1219444e-4, 1,',
    replace: '0.693359375, 0, 1,',
    instances: ['test_reference_softmax_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // The SIMD gemm's micro-kernel reads row 0's (and row 2's) value of A for rows 1 and 3 of each 4-row block.
    name: 'wasm-gemm-row-aliasing',
    operator: 'drop-stride-term',
    file: 'src/runtime/backends/cpu/wasm/gemm.ts',
    find: 'op.v128Load64Splat(8 * r)',
    replace: 'op.v128Load64Splat(8 * (r & 2))',
    instances: ['test_reference_mm_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    name: 'softmax-no-max-subtraction',
    operator: 'remove-correction',
    file: 'src/runtime/ops/reductions/softmax.ts',
    find: '} - m`)}',
    replace: '}`)}',
    instances: ['test_reference_softmax_cpu_float64_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // gradcheck's calibration (inside every gradcheck instance) fails a looser tolerance.
    name: 'gradcheck-atol-x10',
    operator: 'scale-tolerance',
    file: 'src/oracles/gradcheck.ts',
    find: 'atol: 1e-5, rtol',
    replace: 'atol: 1e-4, rtol',
    instances: ['test_gradcheck_neg_cpu_float64_contiguous_eager'],
    killers: ['gradcheck'],
  },
  {
    name: 'gradcheck-fast-mode-tolerance-x10',
    operator: 'scale-tolerance',
    file: 'src/oracles/gradcheck.ts',
    find: '<= atol + rtol * Math.abs(numerical)',
    replace: '<= 10 * (atol + rtol * Math.abs(numerical))',
    instances: ['test_gradcheck_neg_cpu_float64_contiguous_eager'],
    killers: ['gradcheck'],
  },
  {
    // The reference oracle's floor calibration (inside every reference instance) fails a looser device floor.
    name: 'webgpu-float32-floor-x10',
    operator: 'scale-tolerance',
    file: 'src/oracles/tolerances.ts',
    find: 'webgpu: { float32: { rtol: 1e-5,',
    replace: 'webgpu: { float32: { rtol: 1e-4,',
    instances: ['test_reference_neg_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // The golden oracle compares the sign of float64 zeros with PyTorch's: relu(-0) is -0 (clamp_min keeps x).
    name: 'relu-loses-negative-zero',
    operator: 'swap-comparison',
    file: 'src/runtime/ops/nn/activation/rectifiers.ts',
    find: 'num: (x: number) => (x < 0 ? 0 : x),',
    replace: 'num: (x: number) => (x <= 0 ? 0 : x),',
    instances: ['test_golden_nn_functional_relu_cpu_float64_contiguous_eager'],
    killers: ['golden'],
  },
  {
    // The compile oracle's third call feeds another layout: it must not reuse the first layout's entry.
    name: 'compile-stride-guard-dropped',
    operator: 'drop-guard',
    file: 'src/runtime/compile/guards.ts',
    find: 'if (sp !== g.strides) return',
    replace: 'if (false) return',
    instances: ['test_compile_add_cpu_float32_contiguous_compile'],
    killers: ['compile'],
  },
  {
    // meta, cpu and webgpu share cat's shape rule; PyTorch's recorded shapes (golden) do not.
    name: 'cat-shape-first-counted-twice',
    operator: 'remove-correction',
    file: 'src/runtime/ops/shape/shape.ts',
    find: 'let size = 0;',
    replace: 'let size = valid.shape[dim];',
    instances: ['test_golden_cat_cpu_float32_contiguous_eager'],
    killers: ['golden'],
  },
  {
    // int64 beyond 2^53: the float64 reference rounds like the bug; PyTorch's recorded values (golden) do not.
    name: 'int64-add-through-float64',
    operator: 'narrow-accumulator',
    file: 'src/runtime/ops/pointwise/arith/binary.ts',
    find: 'big: (a: bigint, b: bigint, alpha: bigint) => a + alpha * b,',
    replace: 'big: (a: bigint, b: bigint, alpha: bigint) => BigInt(Number(a) + Number(alpha * b)),',
    instances: ['test_golden_add_cpu_int64_contiguous_eager'],
    killers: ['golden'],
  },
  {
    // An int tensor with a Python float: the default dtype (float32), not float64.
    name: 'python-float-promotes-to-float64',
    operator: 'promotion-entry',
    file: 'src/runtime/core/promotion.ts',
    find: "if (kind === 'float') return defaultDType;",
    replace: "if (kind === 'float') return 'float64';",
    instances: ['test_reference_add_cpu_int32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // bfloat16 products summed exactly and rounded once, not in PyTorch 1.13's bfloat16 steps (product_order.ts).
    name: 'bf16-gemm-rounds-once',
    operator: 'remove-correction',
    file: 'src/runtime/ops/linalg/gemm.ts',
    find: '? (s: number, p: number) => roundBf16(s + roundBf16(p))',
    replace: '? (s: number, p: number) => s + p',
    instances: ['test_golden_mm_cpu_bfloat16_contiguous_eager'],
    killers: ['golden'],
  },
  {
    // Every bfloat16 product steps, also where PyTorch's gemm with a transposed first operand sums in float32.
    name: 'bf16-gemm-transa-steps',
    operator: 'drop-guard',
    file: 'src/runtime/ops/linalg/product_order.ts',
    find: "return ta && !tb ? 'float32' : 'steps';",
    replace: "return 'steps';",
    instances: ['test_golden_mm_cpu_bfloat16_contiguous_eager'],
    killers: ['golden'],
  },
  {
    // softmax and log_softmax of bfloat16 computed as float32 is (exps and sums in float64, rounded once).
    name: 'bf16-softmax-rounds-once',
    operator: 'drop-guard',
    file: 'src/runtime/ops/reductions/softmax.ts',
    find: "  if (c !== 'bfloat16') return 'none';",
    replace: "  return 'none';",
    instances: ['test_golden_log_softmax_cpu_bfloat16_contiguous_eager'],
    killers: ['golden'],
  },
  {
    // gelu of bfloat16 computed in float64 and rounded once, not in PyTorch 1.13's bfloat16 steps.
    name: 'bf16-gelu-rounds-once',
    operator: 'remove-correction',
    file: 'src/runtime/ops/nn/activation/pointwise.ts',
    find: '    bf16: geluNoneBf16,',
    replace: '',
    instances: ['test_golden_nn_functional_gelu_cpu_bfloat16_contiguous_eager'],
    killers: ['golden'],
  },
  {
    // bfloat16 layer_norm through the float32 decomposition alone (statistics rounded once, not in PyTorch's steps).
    name: 'bf16-layer-norm-rounds-once',
    operator: 'drop-guard',
    file: 'src/runtime/ops/nn/norm/layer_norm.ts',
    find: "if (x.dtype === 'bfloat16' && x.device === 'cpu' && x.numel > 0)",
    replace: "if (x.dtype === 'bfloat16' && x.device === 'meta' && x.numel > 0)",
    instances: ['test_golden_native_layer_norm_cpu_bfloat16_contiguous_eager'],
    killers: ['golden'],
  },
  {
    // bfloat16 group_norm through the float32 decomposition alone (not PyTorch's bfloat16 steps).
    name: 'bf16-group-norm-rounds-once',
    operator: 'drop-guard',
    file: 'src/runtime/ops/nn/norm/layer_norm.ts',
    find: "if (x.dtype === 'bfloat16' && x.device === 'cpu' && x.numel > 0 && !isChannelsLast(x))",
    replace: "if (x.dtype === 'bfloat16' && x.device === 'meta' && x.numel > 0 && !isChannelsLast(x))",
    instances: ['test_golden_nn_functional_group_norm_cpu_bfloat16_contiguous_eager'],
    killers: ['golden'],
  },
  {
    // float16 subnormals round on a path of their own; add/sub/mul have a subnormal sample.
    name: 'float16-subnormal-rounds-toward-zero',
    operator: 'round-toward-zero',
    file: 'src/runtime/core/half.ts',
    find: 'if (rem > half || (rem === half && h & 1)) h++;',
    replace: '',
    instances: [
      'test_golden_add_cpu_float16_contiguous_eager',
      'test_reference_add_cpu_float16_contiguous_eager',
    ],
    killers: ['golden'],
  },
  {
    // A tuple out= overload (max_pool2d_with_indices.out) writing its indices from storage element 0 of their
    // storage: only the reference oracle's out= views in the middle of a larger storage show it.
    name: 'max-pool-out-indices-offset-dropped',
    operator: 'drop-offset',
    file: 'src/runtime/ops/nn/pool/windows.ts',
    find: 'const ib = indices.storageOffset + n * oi.sn + c * oi.sc;',
    replace: 'const ib = n * oi.sn + c * oi.sc;',
    instances: ['test_reference_max_pool2d_with_indices_cpu_float64_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // One zero written past each output row: later rows and planes overwrite it, the last one lands after the
    // out (a typed array drops it at the storage's end); only an out= view with guard elements after it shows it.
    name: 'max-unpool-out-zeroes-past-its-rows',
    operator: 'swap-comparison',
    file: 'src/runtime/ops/nn/pool/unpool.ts',
    find: 'for (let v = 0; v < W; v++) write(dst, ob + z * os[2] + y * os[3] + v * os[4], 0);',
    replace: 'for (let v = 0; v <= W; v++) write(dst, ob + z * os[2] + y * os[3] + v * os[4], 0);',
    instances: ['test_reference_max_unpool2d_cpu_float64_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // Autograd's saved-tensor checks need every out= write to bump out's version counter, resized or not.
    name: 'out-version-not-bumped',
    operator: 'remove-correction',
    file: 'src/runtime/ops/out_define.ts',
    find: '    for (const o of outs) o.bumpVersion();',
    replace: '    ',
    instances: ['test_reference_exp_cpu_float32_contiguous_eager'],
    killers: ['reference'],
  },
  {
    // A flaky result's row must say it took two attempts, a broken one all three (an `opgate run` end to end).
    name: 'results-row-attempts-lost',
    operator: 'remove-correction',
    file: 'src/ci/run/channel.ts',
    find: 'attempts: 1 + t.retryCount,',
    replace: 'attempts: 1,',
    instances: [],
    tests: ['tests/unit/flaky_e2e.test.ts'],
    killers: ['unit'],
    slow: true,
  },
  {
    // The backward oracle backs through each graph a second time: a node that runs on what it released fails.
    name: 'second-backward-guard-dropped',
    operator: 'drop-guard',
    file: 'src/runtime/autograd/engine.ts',
    find: 'if (node.released) {',
    replace: 'if (false) {',
    instances: ['test_backward_nn_functional_layer_norm_cpu_float64_transposed_eager'],
    killers: ['backward'],
  },
];

/** The mutant a named entry makes of the file as it is now. */
export function resolveNamed(root: string, n: NamedMutant): Mutant {
  const lines = readFileSync(join(root, n.file), 'utf8').split('\n');
  const at = lines.flatMap((l, i) => (l.includes(n.find) ? [i] : []));
  if (at.length !== 1)
    throw new CiError(
      'E_INVALID_ARGUMENT',
      `named mutant '${n.name}': '${n.find}' occurs ${at.length} times in ${n.file}, expected exactly once`,
    );
  const original = lines[at[0]];
  const mutated = original.replace(n.find, n.replace);
  return {
    id: mutantId(n.file, n.operator, original, mutated, 0),
    file: n.file,
    line: at[0] + 1,
    operator: n.operator,
    original,
    mutated,
    name: n.name,
    tests: n.tests ?? [],
    instances: n.instances,
  };
}
