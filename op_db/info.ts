/** `opInfo()`: builds a complete OpInfo from the few fields an entry states (PyTorch's OpInfo defaults). */
import { type DeviceType, DTYPE_GROUPS, type DType } from '../src/runtime/index.ts';
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
  readonly variants?: Partial<Record<Variant, boolean>>;
  readonly flags?: Partial<OpFlags>;
};

/**
 * What the webgpu device computes with: float32, int32 and uint8/bool (widened to 32-bit words). Declared
 * unsupported there, like MPS: float64 and complex (no WGSL type), int64 arithmetic (stored exactly as two
 * words for indices and copies, not computed), float16/bfloat16 (the CI adapter has no shader-f16), int8/int16.
 */
export const WEBGPU_DTYPES: readonly DType[] = ['float32', 'int32', 'uint8', 'bool'];

export function opInfo(spec: OpInfoSpec): OpInfo {
  const { dtypes, dtypesIf, backwardDtypes, variants, flags, unsupported, ...rest } = spec;
  const webgpu = unsupported?.webgpu
    ? []
    : (dtypesIf?.webgpu ?? dtypes.filter((d) => WEBGPU_DTYPES.includes(d)));
  const floats = DTYPE_GROUPS.floatingAndComplex;
  return {
    op: spec.name,
    aliases: [],
    referenceInputs: () => [],
    errorInputs: () => [],
    arbitrary: null,
    ref: null,
    resultDType: null,
    tolerances: {},
    skips: [],
    ...rest,
    variants: { function: true, method: false, inplace: false, out: false, ...variants },
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
      nondeterministicValues: false,
      exactRounding: false,
      ...flags,
    },
  };
}
