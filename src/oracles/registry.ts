/**
 * One record per oracle: everything the matrix, the runner, `repro`, sharding and target determination need to
 * know about an oracle, declared once. `Record<Oracle, ...>` makes a missing record a compile error; the name
 * list itself stays in op_db (its skip rules name oracles, and op_db sits below the oracles).
 */
import { LAYOUTS, type Layout, type Mode, type OpInfo, type Oracle } from '../../op_db/index.ts';
import { selectedTargets } from '../targets/index.ts';
import { runCompile } from './compile.ts';
import { runCrossBackend } from './crossbackend.ts';
import { runDtypes } from './dtypes.ts';
import { runErrors } from './errors.ts';
import { instanceRequests, runGolden } from './golden/index.ts';
import { gradSamples, runBackwardConsistency, runGradcheckOracle, runGradgradcheckOracle } from './grad.ts';
import { type Instance, type OracleResult, sampleContext } from './instance.ts';
import { runMetadata } from './metadata.ts';
import { runProperty } from './property.ts';
import { runReference } from './reference.ts';
import { DTYPES, type DType, registeredDevice } from './runtime_face.ts';

/** The matrix tiers: `pull` (every pull request, `npm test`) and `full` (nightly). */
export type Tier = 'pull' | 'full';

export type OracleRunner = (inst: Instance, sample?: number) => OracleResult | Promise<OracleResult>;

/** One device of an oracle's matrix: the dtypes (per OpInfo) and layouts it runs there. */
export interface OracleAxis {
  readonly device: Instance['device'];
  readonly dtypes: (info: OpInfo) => readonly DType[];
  readonly layouts: readonly Layout[];
}

export interface OracleRecord<O extends Oracle = Oracle> {
  readonly name: O;
  readonly run: OracleRunner;
  /**
   * How many samples an instance indexes (`repro --sample k` takes k below it); null when its samples have no
   * stable index (property-based samples are drawn by fast-check from the seed).
   */
  readonly samples: (inst: Instance) => number | null;
  /** Devices × dtypes × layouts per tier. */
  readonly axes: (tier: Tier) => readonly OracleAxis[];
  /** Whether an OpInfo has instances of this oracle at all. */
  readonly applies: (info: OpInfo) => boolean;
  readonly mode: Mode;
  /** The vitest template file that defines this oracle's tests (`defineMatrixTests('<name>', ...)`). */
  readonly template: string;
  /** The src/oracles files that implement it: a change to one re-runs this oracle (target determination). */
  readonly sources: readonly string[];
  /** Shard planning without history: the cost of one sample on cpu, in ms (calibrated on this project's runs). */
  readonly msPerSample: number;
}

const claimed = (info: OpInfo) => info.dtypes.cpu;
/**
 * A registered device (registerDevice) runs the cross-backend oracle against cpu over everything cpu claims: the
 * ruler its conformance is measured by (the matrix marks the dtypes it does not compute unsupported).
 */
const registeredAxes = (tier: Tier): readonly OracleAxis[] => {
  const device = registeredDevice();
  return device === null
    ? []
    : [{ device: device as Instance['device'], dtypes: claimed, layouts: gpuLayouts(tier) }];
};
/**
 * The targets a command selected (--target, src/targets): the golden oracle replays PyTorch's recorded results on
 * each, over every dtype cpu claims (the matrix marks what it cannot hold or has no row for), contiguous only (a
 * foreign runtime's API takes row-major values).
 */
const targetAxes = (): readonly OracleAxis[] =>
  selectedTargets().map((t) => ({
    device: t as Instance['device'],
    dtypes: claimed,
    layouts: ['contiguous'],
  }));
const onWebgpu = (info: OpInfo) => info.dtypes.webgpu;
/** The pull tier runs webgpu on the layouts that exercise strides and offsets in the shaders. */
const gpuLayouts = (tier: Tier): readonly Layout[] =>
  tier === 'full' ? LAYOUTS : ['contiguous', 'transposed', 'offset'];
/** Autograd oracles run in float64, where the OpInfo claims backward support for it. */
const float64If = (info: OpInfo): readonly DType[] =>
  info.backwardDtypes.cpu.includes('float64') ? ['float64'] : [];
const sampleInputs = (inst: Instance) => inst.info.sampleInputs(sampleContext(inst)).length;
const gradSampleCount = (inst: Instance) => gradSamples(inst).length;
/** The templates are TypeScript in opgate's repository and JavaScript in the installed package (its dist/). */
const TEMPLATE_EXT = import.meta.url.endsWith('.js') ? 'js' : 'ts';
const template = (o: Oracle) => `tests/templates/${o}.test.${TEMPLATE_EXT}`;
/** float64 on cpu; the expanded layout is excluded because gradcheck refuses stride-0 inputs, like PyTorch. */
const gradcheckAxes = (tier: Tier): readonly OracleAxis[] => [
  {
    device: 'cpu',
    dtypes: float64If,
    layouts: tier === 'full' ? LAYOUTS.filter((l) => l !== 'expanded') : ['contiguous', 'transposed'],
  },
];
const GRAD_SOURCES = ['src/oracles/grad.ts', 'src/oracles/gradcheck.ts', 'src/oracles/grad_calibration.ts'];

/** Keys in the order the matrix expands them (instance order in a run and its plan). */
export const ORACLE_TABLE: { readonly [O in Oracle]: OracleRecord<O> } = {
  reference: {
    name: 'reference',
    run: runReference,
    samples: sampleInputs,
    axes: (tier) => [
      // channels_last only differs from contiguous for 4-d samples: the full tier runs it.
      {
        device: 'cpu',
        dtypes: claimed,
        layouts: tier === 'full' ? LAYOUTS : LAYOUTS.filter((l) => l !== 'channels_last'),
      },
      { device: 'webgpu', dtypes: onWebgpu, layouts: gpuLayouts(tier) },
    ],
    applies: (info) => info.ref !== null,
    mode: 'eager',
    template: template('reference'),
    sources: ['src/oracles/reference.ts'],
    msPerSample: 0.25,
  },
  golden: {
    name: 'golden',
    run: runGolden,
    samples: (inst) => instanceRequests(inst).length,
    axes: (tier) => [
      {
        device: 'cpu',
        dtypes: claimed,
        // The pull tier compares with PyTorch on a dense and a strided layout; the reference oracle covers the
        // others against the float64 reference, and the full tier compares them all with PyTorch.
        layouts: tier === 'full' ? LAYOUTS : ['contiguous', 'transposed'],
      },
      // On webgpu the pull tier replays contiguous samples (crossbackend covers its layouts against cpu).
      { device: 'webgpu', dtypes: onWebgpu, layouts: tier === 'full' ? LAYOUTS : ['contiguous'] },
      ...targetAxes(),
    ],
    applies: (info) => info.outOfTree === undefined,
    mode: 'eager',
    template: template('golden'),
    sources: [
      'src/oracles/golden/oracle.ts',
      'src/oracles/golden/requests.ts',
      'src/oracles/golden/serialize.ts',
    ],
    msPerSample: 0.3,
  },
  crossbackend: {
    name: 'crossbackend',
    run: runCrossBackend,
    samples: sampleInputs,
    axes: (tier) => [
      {
        device: 'webgpu',
        dtypes: onWebgpu,
        layouts: gpuLayouts(tier),
      },
      ...registeredAxes(tier),
    ],
    applies: () => true,
    mode: 'eager',
    template: template('crossbackend'),
    sources: ['src/oracles/crossbackend.ts'],
    msPerSample: 0.6,
  },
  compile: {
    name: 'compile',
    run: runCompile,
    samples: sampleInputs,
    axes: (tier) => {
      const f32 = (i: OpInfo, d: 'cpu' | 'webgpu') => {
        const c = i.dtypes[d];
        return c.includes('float32') ? ['float32' as DType] : c.slice(0, 1);
      };
      return tier === 'full'
        ? [
            { device: 'cpu', dtypes: claimed, layouts: ['contiguous', 'transposed', 'expanded'] },
            { device: 'webgpu', dtypes: onWebgpu, layouts: ['contiguous', 'transposed'] },
          ]
        : [
            { device: 'cpu', dtypes: (i) => f32(i, 'cpu'), layouts: ['contiguous', 'transposed'] },
            { device: 'webgpu', dtypes: (i) => f32(i, 'webgpu'), layouts: ['contiguous'] },
          ];
    },
    applies: (info) => info.flags.supportsCompile,
    mode: 'compile',
    template: template('compile'),
    sources: ['src/oracles/compile.ts'],
    msPerSample: 3,
  },
  metadata: {
    name: 'metadata',
    run: runMetadata,
    samples: sampleInputs,
    axes: (tier) => [
      {
        device: 'meta',
        dtypes: claimed,
        layouts: tier === 'full' ? LAYOUTS : ['contiguous', 'transposed', 'offset'],
      },
      { device: 'webgpu', dtypes: (i) => onWebgpu(i).slice(0, 1), layouts: gpuLayouts(tier) },
    ],
    applies: () => true,
    mode: 'eager',
    template: template('metadata'),
    sources: ['src/oracles/metadata.ts'],
    msPerSample: 0.15,
  },
  errors: {
    name: 'errors',
    run: runErrors,
    samples: (inst) => inst.info.errorInputs(sampleContext(inst)).length,
    axes: () => [
      { device: 'cpu', dtypes: (i) => i.dtypes.cpu.slice(0, 1), layouts: ['contiguous'] },
      { device: 'webgpu', dtypes: (i) => onWebgpu(i).slice(0, 1), layouts: ['contiguous'] },
    ],
    applies: (info) =>
      info.errorInputs({
        device: 'cpu',
        dtype: info.dtypes.cpu[0] ?? 'float32',
        requiresGrad: false,
        seed: 0,
      }).length > 0,
    mode: 'eager',
    template: template('errors'),
    sources: ['src/oracles/errors.ts', 'src/oracles/untouched.ts'],
    msPerSample: 0.1,
  },
  dtypes: {
    name: 'dtypes',
    run: runDtypes,
    samples: sampleInputs,
    axes: (tier) => [
      { device: 'cpu', dtypes: () => DTYPES, layouts: ['contiguous'] },
      // Meta claims follow cpu's unless an OpInfo says otherwise: the pull tier checks the dtypes where they
      // differ and the first claimed one; the full tier checks all of them.
      {
        device: 'meta',
        dtypes: (i) =>
          tier === 'full'
            ? DTYPES
            : DTYPES.filter(
                (d) => i.dtypes.meta.includes(d) !== i.dtypes.cpu.includes(d) || d === i.dtypes.meta[0],
              ),
        layouts: ['contiguous'],
      },
    ],
    applies: () => true,
    mode: 'eager',
    template: template('dtypes'),
    sources: ['src/oracles/dtypes.ts'],
    msPerSample: 0.15,
  },
  property: {
    name: 'property',
    run: (inst) => runProperty(inst),
    samples: () => null,
    axes: (tier) => [
      {
        device: 'cpu',
        dtypes: (i) =>
          tier === 'full' ? claimed(i) : claimed(i).filter((d) => d === 'float32' || d === 'int64'),
        layouts: ['contiguous'],
      },
    ],
    applies: (info) => info.ref !== null && info.arbitrary !== null,
    mode: 'eager',
    template: template('property'),
    sources: ['src/oracles/property.ts'],
    msPerSample: 4,
  },
  gradcheck: {
    name: 'gradcheck',
    run: runGradcheckOracle,
    samples: gradSampleCount,
    axes: gradcheckAxes,
    applies: (info) => info.flags.supportsAutograd,
    mode: 'eager',
    template: template('gradcheck'),
    sources: GRAD_SOURCES,
    msPerSample: 3,
  },
  gradgradcheck: {
    name: 'gradgradcheck',
    run: runGradgradcheckOracle,
    samples: gradSampleCount,
    axes: gradcheckAxes,
    applies: (info) => info.flags.supportsAutograd && info.flags.supportsGradgrad,
    mode: 'eager',
    template: template('gradgradcheck'),
    sources: GRAD_SOURCES,
    msPerSample: 6,
  },
  backward: {
    name: 'backward',
    run: runBackwardConsistency,
    samples: gradSampleCount,
    axes: (tier) => [
      {
        device: 'cpu',
        dtypes: float64If,
        layouts:
          tier === 'full' ? LAYOUTS.filter((l) => l !== 'contiguous') : ['transposed', 'strided', 'expanded'],
      },
    ],
    applies: (info) => info.flags.supportsAutograd,
    mode: 'eager',
    template: template('backward'),
    sources: GRAD_SOURCES,
    msPerSample: 1.5,
  },
};

/** The records in expansion order. */
export const oracleRecords = (): readonly OracleRecord[] => Object.values(ORACLE_TABLE);
