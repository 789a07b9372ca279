/** `opInfo()`: builds a complete OpInfo from the few fields an entry states (PyTorch's OpInfo defaults). */
import { DTYPE_GROUPS, type DType } from '../src/runtime/index.ts';
import type { OpFlags, OpInfo, Variant } from './types.ts';

export type OpInfoSpec = Partial<Omit<OpInfo, 'variants' | 'flags' | 'dtypes' | 'backwardDtypes'>> & {
  readonly name: string;
  readonly family: string;
  readonly sampleInputs: OpInfo['sampleInputs'];
  /** cpu dtypes; meta claims the same unless `dtypesIf.meta` says otherwise. */
  readonly dtypes: readonly DType[];
  readonly dtypesIf?: Partial<OpInfo['dtypes']>;
  readonly backwardDtypes?: readonly DType[];
  readonly variants?: Partial<Record<Variant, boolean>>;
  readonly flags?: Partial<OpFlags>;
};

export function opInfo(spec: OpInfoSpec): OpInfo {
  const { dtypes, dtypesIf, backwardDtypes, variants, flags, ...rest } = spec;
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
    dtypes: { cpu: dtypes, meta: dtypesIf?.meta ?? dtypes, webgpu: dtypesIf?.webgpu ?? [] },
    backwardDtypes: { cpu: backwardDtypes ?? dtypes.filter((d) => floats.includes(d)), meta: [], webgpu: [] },
    flags: {
      supportsAutograd: false,
      supportsGradgrad: false,
      supportsCompile: false,
      promotesIntToFloat: false,
      isView: false,
      mutates: false,
      nondeterministicValues: false,
      exactRounding: false,
      ...flags,
    },
  };
}
