/**
 * A pointwise op is one table row: its scalar functions per compute domain, its WGSL expression, its
 * promotion kind, which dtype kinds it supports, its Python variants and its derivative. `definePointwise`
 * turns a row into the functional, in-place and out overloads, declares its function / method variants and
 * adds its derivative to autograd's table: everything else (the API, op_db's variant checks) reads those.
 */

import type { Derivative, NonDifferentiable } from '../../autograd/index.ts';
import type { ScalarFn, SimdOpName } from '../../backends/cpu/index.ts';
import type { DType, DTypeKind, Tensor } from '../../core/index.ts';
import type { Variants } from '../../dispatch/index.ts';

/** PyTorch's ELEMENTWISE_TYPE_PROMOTION_KIND. */
export type PromotionKind =
  | 'default'
  | 'intToFloat'
  | 'alwaysBool'
  | 'complexToFloat'
  | 'intToFloatComplexToFloat';

export interface PointwiseRow {
  /** aten name, e.g. 'add'. */
  readonly name: string;
  /** Functional schema; defaults to `name(Tensor self) -> Tensor` / `name.Tensor(Tensor self, Tensor other) -> Tensor`. */
  readonly schema?: string;
  readonly arity: 1 | 2 | 3;
  readonly promotion: PromotionKind;
  /** Scalar function on JS numbers (bool, small ints, floats). Ints wrap on store; int math must stay exact. */
  readonly num?: ScalarFn;
  /**
   * Override of `num` when the compute dtype is bfloat16 and PyTorch 1.13's CPU kernel computes in it: each step of
   * its Vectorized<BFloat16> loop converts the step's float result back to bfloat16.
   */
  readonly bf16?: ScalarFn;
  /** Override of `num` when the compute dtype is bool or int8..int32 (exact int math, e.g. Math.imul). */
  readonly int?: ScalarFn;
  /** Override when the compute dtype is bool. */
  readonly bool?: ScalarFn;
  /**
   * Raises, before the cpu kernel writes anything, what the scalar functions would raise mid-loop (integer
   * division by zero): a raising in-place / out= call must leave self / out untouched, as PyTorch's do.
   */
  readonly precheck?: (inputs: readonly Tensor[], compute: DType, op: string) => void;
  /**
   * Picks the effective row from the bound arguments (div's rounding_mode), or validates them and returns
   * undefined for the row itself (raising, on every device, what aten raises for a bad Scalar argument).
   */
  readonly select?: (args: Readonly<Record<string, unknown>>) => PointwiseRow | undefined;
  /** Scalar function on bigints (int64); results wrap to 64 bits on store. */
  readonly big?: ScalarFn;
  /** Complex function on (re, im) pairs flattened: (ar, ai, br, bi, ...scalars) -> [re, im] (or a real). */
  readonly complex?: ScalarFn;
  /** Dtype kinds the op accepts for its compute dtype; default: the kinds a function exists for. */
  readonly kinds?: readonly DTypeKind[];
  /** Compute dtypes refused with a PyTorch-specific message (e.g. bool subtraction). */
  readonly refuse?: Partial<Record<DType, string>>;
  /** Names of Scalar schema arguments passed to the functions after the element values. */
  readonly scalars?: readonly string[];
  /** Inputs (by position) loaded as bool rather than the compute dtype (the condition of `where`). */
  readonly boolInputs?: readonly number[];
  /**
   * The webgpu kernel's WGSL expression over the loaded operands `a`, `b`, `c` and the scalars `s0`, `s1`:
   * one string for f32 and i32 compute, or one per compute type (`bool` when the compute dtype is bool, which
   * computes in i32 0/1 otherwise). Absent: the op has no webgpu kernel.
   */
  readonly wgsl?: string | WgslExprs;
  /**
   * The cpu backend's WebAssembly SIMD lowering (one f32x4 / f64x2 / i32x4 instruction per vector; float32,
   * float64 and int32 only), used when every operand has the compute dtype and the scalars have these values
   * (add's alpha = 1). Only for ops whose SIMD instruction is exactly the JS kernel's result.
   */
  readonly simd?: { readonly op: SimdOpName; readonly scalars?: readonly number[] };
  /** Extra Python names (e.g. 'nn.functional.relu'). */
  readonly aliases?: readonly string[];
  /** native_functions.yaml's `variants` (default 'function, method'); the in-place `name_` is a method. */
  readonly variants?: Variants;
  /** Whether in-place / out= overloads exist (default true). */
  readonly inplace?: boolean;
  readonly out?: boolean;
  /** The derivatives.yaml row (autograd's table reads it from here), or why PyTorch does not differentiate it. */
  readonly derivative?: Derivative | NonDifferentiable;
  /** The out overload's name in PyTorch's schema (default 'out', e.g. 'self_out' for where). */
  readonly outOverload?: string;
  readonly inplaceOverload?: string;
}

export interface WgslExprs {
  readonly f32?: string;
  readonly i32?: string;
  readonly bool?: string;
  /**
   * 'propagate' (default for arithmetic rows): any NaN operand gives NaN, wrapped around the f32 expression
   * with a bit test, since GLSL-based backends may evaluate comparisons with NaN as true. 'own': the
   * expression handles NaN itself (comparisons, sign, pow's 1 ** NaN, hypot's inf).
   */
  readonly nan?: 'propagate' | 'own';
}

/**
 * The variants a list of `as const` rows declares, as a type: each row's name with its `variants` (default
 * function and method), and `name_` as a method unless the row says `inplace: false`. Mirrors what
 * `definePointwise` declares at runtime, so tsc checks `torch.name` / `t.name_()` against the rows.
 */
export type RowsApi<R extends PointwiseRow> = {
  readonly [K in R['name']]: Extract<R, { readonly name: K }> extends { readonly variants: infer V }
    ? V
    : 'function, method';
} & { readonly [K in Exclude<R, { readonly inplace: false }>['name'] as `${K}_`]: 'method' };
