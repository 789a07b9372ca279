/**
 * The pointwise OpInfo builders: one line per op (name, float64 reference, claimed dtypes, options) becomes an
 * OpInfo with its family's samples, error inputs, property arbitraries, reference and result dtype.
 */
import { DTYPE_GROUPS, type DType, opVariants, takesNumbersAsTensors } from '../../src/runtime/index.ts';
import { opInfo } from '../info.ts';
import { binaryRef, type ComplexFn, unaryRef } from '../refs/pointwise.ts';
import { type PromotionRule, pointwiseResultDType } from '../refs/promotion.ts';
import type { OpInfo, RefSample } from '../types.ts';
import { binaryArbitrary, unaryArbitrary } from './arbitraries.ts';
import { type BinaryOptions, binaryErrors, binarySamples } from './binary.ts';
import { type UnaryOptions, unaryErrors, unarySamples } from './unary.ts';

export const ALL = DTYPE_GROUPS.all;
export const NO_COMPLEX = DTYPE_GROUPS.allButComplex;
export const NO_BOOL = DTYPE_GROUPS.allButBool;
export const REAL_NUMERIC = DTYPE_GROUPS.realNumeric;
export const FLOATS = DTYPE_GROUPS.floating;
export const INT_BOOL = DTYPE_GROUPS.integralAndBool;

export interface UnarySpec {
  readonly dtypes: readonly DType[];
  readonly complexRef?: ComplexFn;
  readonly samples?: UnaryOptions;
  readonly aliases?: readonly string[];
  readonly intToFloat?: boolean;
  readonly name?: string;
  readonly rule?: PromotionRule;
  readonly exact?: boolean;
}

export function unaryOpInfo(op: string, ref: (x: number) => number, spec: UnarySpec): OpInfo {
  return opInfo({
    name: spec.name ?? op,
    op,
    family: 'unary',
    aliases: spec.aliases ?? [],
    dtypes: spec.dtypes,
    sampleInputs: unarySamples(spec.samples),
    errorInputs: unaryErrors((spec.intToFloat ?? false) && opVariants(op).inplace),
    arbitrary: unaryArbitrary(spec.samples),
    ref: unaryRef(ref, spec.complexRef),
    resultDType: (s) => pointwiseResultDType(s, spec.rule ?? (spec.intToFloat ? 'intToFloat' : 'promote')),
    flags: { promotesIntToFloat: spec.intToFloat ?? false, exactRounding: spec.exact ?? false },
  });
}

/** A float-only unary op's spec: ints and bool promote to the default float dtype. */
export const floatSpec = (
  dtypes: readonly DType[],
  complexRef?: ComplexFn,
  samples?: UnaryOptions,
): UnarySpec => ({
  dtypes,
  complexRef,
  samples,
  intToFloat: true,
});

export type CRef = (ar: number, ai: number, br: number, bi: number, s: RefSample) => [number, number];

export interface BinarySpec {
  readonly dtypes: readonly DType[];
  readonly complexRef?: CRef;
  readonly samples?: BinaryOptions;
  readonly intToFloat?: boolean;
  readonly name?: string;
  readonly rule?: PromotionRule;
  readonly exact?: boolean;
  /** Kwargs under which an integer zero divisor raises (one error input each). */
  readonly zeroDivisor?: readonly Readonly<Record<string, unknown>>[];
}

export function binaryOpInfo(
  op: string,
  ref: (a: number, b: number, s: RefSample) => number,
  spec: BinarySpec,
): OpInfo {
  const lhs = spec.samples?.lhs;
  const rhs = spec.samples?.rhs;
  const bounds = (o?: { low?: number; high?: number; excludeZero?: boolean }) => ({
    min: o?.low,
    max: o?.high,
    excludeZero: o?.excludeZero,
  });
  return opInfo({
    name: spec.name ?? op,
    op,
    family: 'binary',
    dtypes: spec.dtypes,
    // A Python number for `other` binds only where PyTorch takes one (a Scalar overload, or add/sub/mul/div):
    // elsewhere (atan2, maximum, logical_and) it is an argument-parsing error, checked as one.
    sampleInputs: binarySamples({
      ...spec.samples,
      noScalar: spec.samples?.noScalar || !takesNumbersAsTensors(op),
    }),
    errorInputs: binaryErrors(spec.zeroDivisor, !takesNumbersAsTensors(op)),
    arbitrary: binaryArbitrary(bounds(lhs), bounds(rhs), spec.samples?.kwargs),
    ref: binaryRef(ref, spec.complexRef),
    resultDType: (s) => pointwiseResultDType(s, spec.rule ?? (spec.intToFloat ? 'intToFloat' : 'promote')),
    flags: { promotesIntToFloat: spec.intToFloat ?? false, exactRounding: spec.exact ?? false },
  });
}

/** A Python number's kind, as type promotion sees it. */
export function scalarKind(v: unknown): 'bool' | 'int' | 'float' | 'complex' {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'int';
  return (v as { kind: 'bool' | 'int' | 'float' | 'complex' }).kind;
}
