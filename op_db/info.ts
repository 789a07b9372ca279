/**
 * `opInfo()`: builds a complete OpInfo from the few fields an entry states (PyTorch's OpInfo defaults); the
 * variants (method, in-place, out=) come from the runtime's operator table, so every existing variant is checked.
 */
import { type DeviceType, DTYPE_GROUPS, type DType, opVariants } from '../src/runtime/index.ts';
import type { OpFlags, OpInfo, Variant } from './types.ts';

export type OpInfoSpec = Partial<Omit<OpInfo, 'variants' | 'flags' | 'dtypes' | 'backwardDtypes'>> & {
  readonly name: string;
  readonly family: string;
  readonly sampleInputs: OpInfo['sampleInputs'];
  /** cpu dtypes; meta claims the same unless `dtypesIf.meta` says otherwise. */
  readonly dtypes: readonly DType[];
  readonly dtypesIf?: Partial<OpInfo['dtypes']>;
  /** Why the op does not run on a device (its claims there are then empty). */
  readonly unsupported?: Partial<Record<DeviceType, string>>;
  readonly backwardDtypes?: readonly DType[];
  /**
   * Variants the operator table has but the generic checks cannot call as PyTorch would, each with the reason
   * (Tensor.where's receiver is `self`, not the sample's condition). Which variants exist is never stated here:
   * `opInfo` reads it from the runtime's operator table.
   */
  readonly untestedVariants?: Partial<Record<Variant, string>>;
  readonly flags?: Partial<OpFlags>;
};

/**
 * What the webgpu device computes with: float32, int32 and uint8/bool (widened to 32-bit words). Declared
 * unsupported there, like MPS: float64 and complex (no WGSL type), int64 arithmetic (stored exactly as two
 * words for indices and copies, not computed), float16/bfloat16 (the CI adapter has no shader-f16), int8/int16.
 */
export const WEBGPU_DTYPES: readonly DType[] = ['float32', 'int32', 'uint8', 'bool'];

/** The first op_db/ops file on the call stack: the file declaring the OpInfo being built (through any helper). */
function declaringFile(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 30;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return /op_db[\\/]ops[\\/](?:\w+[\\/])*[\w.]+\.ts/.exec(stack)?.[0].replace(/\\/g, '/');
}

export function opInfo(spec: OpInfoSpec): OpInfo {
  const { dtypes, dtypesIf, backwardDtypes, untestedVariants, flags, unsupported, ...rest } = spec;
  const exists = opVariants(rest.op ?? spec.name);
  const tested = (v: Variant) => exists[v] && untestedVariants?.[v] === undefined;
  const webgpu = unsupported?.webgpu
    ? []
    : (dtypesIf?.webgpu ?? dtypes.filter((d) => WEBGPU_DTYPES.includes(d)));
  const floats = DTYPE_GROUPS.floatingAndComplex;
  return {
    op: spec.name,
    declaredIn: declaringFile(),
    aliases: [],
    referenceInputs: () => [],
    errorInputs: () => [],
    unsupportedOverloads: {},
    arbitrary: null,
    ref: null,
    resultDType: null,
    tolerances: {},
    goldenTolerances: {},
    goldenExact: [],
    goldenDeviations: [],
    skips: [],
    ...rest,
    variants: {
      function: tested('function'),
      method: tested('method'),
      inplace: tested('inplace'),
      out: tested('out'),
    },
    unsupported: unsupported ?? {},
    dtypes: { cpu: dtypes, meta: dtypesIf?.meta ?? dtypes, webgpu },
    backwardDtypes: { cpu: backwardDtypes ?? dtypes.filter((d) => floats.includes(d)), meta: [], webgpu: [] },
    flags: {
      supportsAutograd: false,
      supportsGradgrad: false,
      // Every op compiles: the graph replays through the dispatcher, and pointwise chains fuse.
      supportsCompile: true,
      promotesIntToFloat: false,
      isView: false,
      mutates: false,
      keepsVersion: false,
      nondeterministicValues: false,
      randomized: false,
      exactRounding: false,
      ...flags,
    },
  };
}
