/**
 * The OpInfo contract: one declaration per op (DESIGN.md §4), modelled on PyTorch's OpInfo with the key facts
 * per backend (a `dtypes` map keyed by device). op_db is data: samples, references, dtypes, tolerances and
 * skips — it never implements kernels.
 */

import type { Arbitrary } from 'fast-check';
import type { DeviceType, DType, ErrorCode, Scalar, Tensor } from '../src/runtime/index.ts';
import type { RefTensor } from './refs/tensor.ts';

/** The seed the oracles give the default generator before each call of a `randomized` op. */
export const RANDOM_SEED = 42;

export const ORACLES = [
  'reference',
  'golden',
  'gradcheck',
  'gradgradcheck',
  'backward',
  'crossbackend',
  'compile',
  'metadata',
  'errors',
  'dtypes',
  'property',
] as const;
export type Oracle = (typeof ORACLES)[number];

export const LAYOUTS = [
  'contiguous',
  'transposed',
  'strided',
  'expanded',
  'offset',
  'channels_last',
] as const;
export type Layout = (typeof LAYOUTS)[number];

export const MODES = ['eager', 'compile'] as const;
export type Mode = (typeof MODES)[number];

/** Which calling form of the op a sample exercises. */
export type Variant = 'function' | 'method' | 'inplace' | 'out';

/**
 * One call of the op: `op(input, ...args, kwargs)`. Tensors anywhere in args/kwargs are inputs too. `input` is
 * a Tensor except for factories, whose first argument is a size list or a scalar (as in PyTorch's SampleInput).
 */
export interface SampleInput {
  readonly input: Tensor | FactoryInput;
  readonly args: readonly unknown[];
  readonly kwargs: Readonly<Record<string, unknown>>;
  /** A short description for failure messages, e.g. 'broadcast rhs'. */
  readonly name?: string;
  /** The op broadcasts `input` to a larger shape: the in-place variant is not valid for this sample. */
  readonly broadcastsInput?: boolean;
  /**
   * The sample passes arguments only the aten op takes (elu's scale), not the OpInfo's Python spelling
   * (`nn.functional.elu`): the golden recorder calls `torch.ops.aten.<op>` for it.
   */
  readonly aten?: boolean;
  /**
   * The sample is the Tensor method's form, which the function spelling refuses (`x.reshape(2, 3)`: sizes as
   * varargs; PyTorch's torch.reshape takes one list): the golden recorder calls `torch.Tensor.<name>` and Python
   * coverage counts the method's call only.
   */
  readonly method?: boolean;
  /**
   * The expected outputs order equal values as PyTorch's CPU kernels do (sort(stable=False), topk: libstdc++'s
   * algorithms), which a device's kernel need not follow (PyTorch's CUDA kernels order them differently too): the
   * sample applies to cpu and meta, not webgpu.
   */
  readonly cpuTieOrder?: boolean;
  /**
   * Why this sample pins where PyTorch's CPU kernel rounds, at a point where exact math differs by more than any
   * tolerance (a bfloat16 sum that loses each +1 to rounding): the reference oracle, whose reference is exact
   * math, checks its variants but not its values; the golden oracle holds the values to PyTorch's.
   */
  readonly roundingPinned?: string;
  /**
   * The call draws from a generator (dropout in training): the golden oracle compares everything but its values
   * and gradients, which come from PyTorch's own stream; the other oracles replay the runtime's (`randomized`).
   */
  readonly draws?: boolean;
  /**
   * Why gradgradcheck skips this gradient sample: the first derivative itself jumps there (maximum at a tie
   * splits the gradient in half, one side of it takes all), so a second derivative is not defined; gradcheck
   * and backward still check it.
   */
  readonly firstOrderOnly?: string;
}

/** The first argument of a factory: a size list (`zeros([2, 3])`) or a scalar (`arange(5)`, `arange(float(2.5))`). */
export type FactoryInput = readonly number[] | number | Scalar;

export interface ErrorInput {
  readonly sample: SampleInput;
  readonly code: ErrorCode;
  readonly regex: RegExp;
  /**
   * Why this error is raised on cpu only, when it depends on tensor VALUES (an index out of range): an async
   * device cannot raise it at the call without a readback (CUDA's device-side assert), so webgpu skips it.
   */
  readonly valueDependent?: string;
}

export interface SampleContext {
  readonly device: DeviceType;
  readonly dtype: DType;
  readonly requiresGrad: boolean;
  /** Deterministic per instance: samples are a pure function of (op, dtype, seed). */
  readonly seed: number;
}

export interface Tolerance {
  readonly rtol: number;
  readonly atol: number;
}

export interface GoldenTolerance extends Tolerance {
  readonly reason: string;
}

/** Which golden comparisons are expected to differ from PyTorch, and why (listed in docs/deviations.md). */
export interface GoldenDeviation {
  readonly reason: string;
  /** Only these dtypes (all when absent). */
  readonly dtypes?: readonly DType[];
  /** Only samples whose name contains this text (all when absent). */
  readonly sample?: string;
  /**
   * Only this kind of golden request: outputs, error inputs or gradients (all when absent). `layout`: only the
   * memory layout (strides) of the outputs a sample allocates differs; everything else is compared as usual.
   */
  readonly kind?: 'sample' | 'error' | 'grad' | 'layout';
  /** Only these layouts (all when absent): the expanded layout changes a sample's values. */
  readonly layouts?: readonly Layout[];
}

/** A skip or expected failure, as data. `reason` is mandatory; `issue` links the tracker. */
export interface SkipRule {
  readonly kind: 'skip' | 'xfail';
  readonly oracle?: Oracle;
  readonly device?: DeviceType;
  readonly dtype?: DType;
  readonly layout?: Layout;
  readonly mode?: Mode;
  readonly reason: string;
  readonly issue?: number;
}

export interface OpFlags {
  readonly supportsAutograd: boolean;
  readonly supportsGradgrad: boolean;
  /** Why autograd (or gradgrad) is not claimed; required when either flag is false for a float op. */
  readonly autogradReason?: string;
  readonly supportsCompile: boolean;
  readonly promotesIntToFloat: boolean;
  /** The output is a view of `input` (shares storage). */
  readonly isView: boolean;
  /** The function variant writes to one of its inputs (e.g. fill_). */
  readonly mutates: boolean;
  /**
   * An in-place op (name ending in `_`) whose self's version counter PyTorch leaves as it was: resize_ changes
   * metadata, not values. Every other in-place op bumps it (the reference oracle checks), or autograd's
   * saved-tensor check misses the write.
   */
  readonly keepsVersion: boolean;
  /** The op's output values are not a function of the inputs alone (empty, empty_like). */
  readonly nondeterministicValues: boolean;
  /**
   * The op draws from the default generator (dropout, rrelu in training): every oracle call reseeds it with
   * RANDOM_SEED first (PyTorch's wrapper_set_seed), so its values are a function of the inputs and the seed, and the
   * reference replays the same stream. The golden oracle compares all but the values (PyTorch's stream differs).
   */
  readonly randomized: boolean;
  /**
   * Real floating outputs are the correctly rounded value of the exact result (add, mul, div, sqrt, ...): they
   * must equal the reference rounded to the dtype bit for bit. PyTorch's float16 tolerance (rtol 1e-3) is wider
   * than a float16 ulp, so without this a rounding bug would pass.
   */
  readonly exactRounding: boolean;
}

/** A sample as references see it: tensors (also inside lists/kwargs) become RefTensors, Scalars numbers. */
export interface RefSample {
  /** The input as a RefTensor (for factories: the size list or scalar, unchanged; see FactoryInput). */
  readonly input: RefTensor;
  readonly args: readonly unknown[];
  readonly kwargs: Readonly<Record<string, unknown>>;
}

/** A reference: float64 over logical values. Returns one RefTensor or several (values, indices). */
export type RefFn = (s: RefSample) => RefTensor | readonly RefTensor[];

export interface OpInfo {
  /** PyTorch's OpInfo name, e.g. 'add', 'nn.functional.relu', 'linalg.vector_norm'. */
  readonly name: string;
  /** The name callOp resolves (defaults to `name`). */
  readonly op: string;
  /**
   * The op_db/ops file whose declarations built it (`op_db/ops/pointwise/unary.ts`), found from the call stack
   * when it was built: target determination maps a change to that file to exactly its OpInfos. Absent when not built there.
   */
  readonly declaredIn?: string;
  /** An OpInfo a project added (its opgate.config.ts): an op PyTorch does not have, so no golden oracle. */
  readonly outOfTree?: string;
  readonly aliases: readonly string[];
  readonly family: string;
  readonly variants: Readonly<Record<Variant, boolean>>;
  /**
   * The samples whose call has an out= form, where only some overloads have one (PyTorch 1.13's mean.out needs
   * `dim`: `mean(x, out=o)` does not bind); absent: every sample. The out= checks skip the others.
   */
  readonly outApplies?: (s: SampleInput) => boolean;
  /**
   * The samples whose call has an in-place form, where only some do (PyTorch's `x.cumsum_(0, dtype=float64)` on a
   * float32 x is a "Bad in-place call"); absent: every sample whose result fits its input. The in-place checks skip
   * the others.
   */
  readonly inplaceApplies?: (s: SampleInput) => boolean;
  /** Why the op does not run on a device (a reason per device); its claims there are empty. */
  readonly unsupported: Readonly<Partial<Record<DeviceType, string>>>;
  /**
   * PyTorch 1.13 aten overloads of this op (qualified names: `sum.dim_DimnameList`, `add_.Scalar`) that the
   * runtime does not implement, each with the reason (shared reasons in `op_db/overloads.ts`). Schema coverage
   * (`opgate coverage`) requires every other overload to be implemented and called by a sample.
   */
  readonly unsupportedOverloads: Readonly<Record<string, string>>;
  /** Claimed dtypes per device. */
  readonly dtypes: Readonly<Record<DeviceType, readonly DType[]>>;
  readonly backwardDtypes: Readonly<Record<DeviceType, readonly DType[]>>;
  readonly sampleInputs: (ctx: SampleContext) => SampleInput[];
  readonly referenceInputs: (ctx: SampleContext) => SampleInput[];
  readonly errorInputs: (ctx: SampleContext) => ErrorInput[];
  /** Property-based samples: a fast-check arbitrary of sample inputs for a dtype. */
  readonly arbitrary: ((ctx: SampleContext) => Arbitrary<SampleInput>) | null;
  readonly ref: RefFn | null;
  /** The output dtype PyTorch gives for a sample (from recorded tables, not the runtime's promotion code). */
  readonly resultDType: ((s: SampleInput) => DType) | null;
  readonly flags: OpFlags;
  /** Tolerance overrides per dtype (and optionally per device). */
  readonly tolerances: Readonly<Partial<Record<DType, Tolerance>>>;
  /**
   * Where PyTorch's own result is less accurate than the tolerance the runtime is held to (complex64 pow in
   * single precision, float16 sums rounded between stages): the golden oracle compares with this looser
   * tolerance, and each entry says why. A deviation of the runtime from PyTorch is an xfail skip rule instead.
   */
  readonly goldenTolerances: Readonly<Partial<Record<DType, GoldenTolerance>>>;
  /**
   * dtypes whose cpu outputs the golden oracle compares with PyTorch's bit for bit: the kernel rounds where PyTorch
   * 1.13's CPU kernel does (bfloat16 products summed in bfloat16 steps), so a rounding bug inside the dtype's
   * tolerance would otherwise pass.
   */
  readonly goldenExact: readonly DType[];
  /**
   * Samples on which the runtime deliberately differs from PyTorch 1.13 (a PyTorch bug, a missing PyTorch kernel):
   * the golden oracle expects them to differ and fails when one no longer does, like an xfail, per sample.
   */
  readonly goldenDeviations: readonly GoldenDeviation[];
  readonly skips: readonly SkipRule[];
}
