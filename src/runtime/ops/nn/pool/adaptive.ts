/**
 * Adaptive average and max pooling over 1, 2 or 3 spatial dims, as aten splits them: `_adaptive_avg_pool2d` /
 * `_adaptive_avg_pool3d` and `adaptive_max_pool2d` / `adaptive_max_pool3d` own the kernels (nn/pool/windows.ts: one
 * blocked loop over windows, reading strides) and the derivatives; `adaptive_avg_pool2d` / `3d` check
 * output_size and take the mean for an all-ones output (aten's shortcut, whose checks and rounding differ); the 1d
 * ops pool a [.., 1, L] view with the 2d ones. F's Python layer is nn/pool/adaptive_python.ts.
 */
import { defineDerivative } from '../../../autograd/index.ts';
import { adaptiveWindowsGPU, poolGPU } from '../../../backends/webgpu/index.ts';
import {
  CPP_TYPE_NAMES,
  channelsLastStrides,
  contiguousStrides,
  DTYPE_INFO,
  f16BitsToNumber,
  InvalidArgumentError,
  numberToF16Bits,
  ResultTypeError,
  type Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { defineOut, notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { defineOuts } from '../../out_define.ts';
import { isChannelsLast } from '../../shape/index.ts';
import { defineOp } from '../../structured.ts';
import { registerAdaptivePoolPython } from './adaptive_python.ts';
import {
  type Accumulate,
  adaptiveWindows,
  avgPoolBackward,
  avgPoolCpu,
  maxPoolBackward,
  maxPoolCpu,
} from './windows.ts';

export const ADAPTIVE_POOL_API = {
  adaptive_avg_pool1d: 'function',
  adaptive_max_pool1d: 'function',
} as const satisfies ApiDecl;

type Kind = 'avg' | 'max';
/** Which kernel fills the outputs (meta: none). */
type Run = 'cpu' | 'meta' | 'webgpu';
const shapeStr = (s: readonly number[]) => `[${s.join(', ')}]`;
const invalid = (message: string, op: string, arg: string, got: unknown, expected: string) =>
  new InvalidArgumentError(message, { op, arg, got, expected });

/** Kernel names in aten's "not implemented for" messages. */
const KERNEL: Record<Kind, Record<number, string>> = {
  avg: { 2: 'adaptive_avg_pool2d', 3: 'adaptive_avg_pool3d_cpu' },
  max: { 2: 'adaptive_max_pool2d', 3: 'adaptive_max_pool3d_cpu' },
};

/**
 * The checks of aten's kernels, in their order, then the output shape. Average pooling refuses an empty spatial
 * dim; max pooling (and average 3d) an empty non-batch dim other than an unbatched input's channels.
 */
function checkPool(kind: Kind, x: Tensor, size: readonly number[], k: number, op: string): number[] {
  const name = `adaptive_${kind}_pool${k}d`;
  if (size.length !== k)
    throw invalid(
      kind === 'max'
        ? `${name}(): internal error: output_size.size() must be ${k}`
        : `${name}: output_size must be ${k}`,
      op,
      'output_size',
      size,
      `${k}`,
    );
  if (x.ndim !== k + 1 && x.ndim !== k + 2)
    throw invalid(
      `${name}(): Expected ${k + 1}D or ${k + 2}D tensor, but got${kind === 'max' ? ':' : ''} ${shapeStr(x.shape)}`,
      op,
      'self',
      x.ndim,
      `${k + 1} or ${k + 2} dims`,
    );
  const first = kind === 'avg' && k === 2 ? x.ndim - 2 : 1;
  for (let d = first; d < x.ndim; d++)
    if (x.shape[d] === 0)
      throw invalid(
        `${name}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ${shapeStr(x.shape)} with dimension ${d} being empty`,
        op,
        'self',
        x.shape,
        'non-empty non-batch dims',
      );
  if (DTYPE_INFO[x.dtype].kind !== 'float') throw notImplementedFor(KERNEL[kind][k], x.dtype, op);
  return [...x.shape.slice(0, x.ndim - k), ...size];
}

/** The 2d ops keep a channels_last 4-d input channels_last (suggest_memory_format); the others are contiguous. */
const channelsLastOut = (x: Tensor, k: number) => k === 2 && isChannelsLast(x);

function poolOutput(x: Tensor, shape: readonly number[], k: number, dtype = x.dtype): Tensor {
  const memory_format = channelsLastOut(x, k) ? 'channels_last' : 'contiguous_format';
  return t('empty', [shape], { dtype, device: x.device, memory_format });
}

/**
 * aten's accumulation: the 2d kernel sums in opmath (float32 below float64), the 3d kernel in the input's own
 * dtype (float16 rounds at every step).
 */
function accumulateAdaptive(x: Tensor, k: number): Accumulate {
  if (x.dtype === 'float64') return (v) => v;
  if (k === 3 && x.dtype === 'float16') return (v) => f16BitsToNumber(numberToF16Bits(v));
  return Math.fround;
}

/** poolOutput's strides, for out=. */
const outStrides = (x: Tensor, shape: readonly number[], k: number) =>
  channelsLastOut(x, k) ? channelsLastStrides(shape) : contiguousStrides(shape);

/** The webgpu pooling over adaptive windows into out's spatial sizes: max with indices, else the average. */
const adaptivePoolGPU = (x: Tensor, k: number, out: Tensor, indices?: Tensor) =>
  poolGPU({ input: x, nd: k, out, indices, windows: adaptiveWindowsGPU(out.shape.slice(out.ndim - k)) });

/** The windows of each spatial axis, from the input's shape to output_size. */
const shapeWindows = (shape: readonly number[], size: readonly number[], k: number) =>
  size.slice(size.length - k).map((o, a) => adaptiveWindows(shape[shape.length - k + a], o));

const windowsOf = (x: Tensor, size: readonly number[], k: number) => shapeWindows(x.shape, size, k);

function avgPool(a: BoundArgs, k: number, op: string, run: Run): Tensor {
  const x = a.self as Tensor;
  const size = a.output_size as number[];
  const out = poolOutput(x, checkPool('avg', x, size, k, op), k);
  if (run === 'cpu') avgPoolCpu(x, k, out, windowsOf(x, size, k), accumulateAdaptive(x, k));
  else if (run === 'webgpu') adaptivePoolGPU(x, k, out);
  return out;
}

function maxPool(a: BoundArgs, k: number, op: string, run: Run): Tensor[] {
  const x = a.self as Tensor;
  const size = a.output_size as number[];
  const shape = checkPool('max', x, size, k, op);
  const values = poolOutput(x, shape, k);
  const indices = poolOutput(x, shape, k, 'int64');
  if (run === 'webgpu') adaptivePoolGPU(x, k, values, indices);
  else if (run === 'cpu') {
    const windows = windowsOf(x, size, k);
    maxPoolCpu(x, k, values, indices, () => windows);
  }
  return [values, indices];
}

/** adaptive_avg_pool2d / 3d: output_size checked, then the mean over the spatial dims for an all-ones output. */
function adaptiveAvg(x: Tensor, size: readonly number[], k: number, op: string): Tensor {
  if (size.length !== k)
    throw invalid(`adaptive_avg_pool${k}d: output_size must be ${k}`, op, 'output_size', size, `${k} sizes`);
  if (size.some((s) => s < 0))
    throw invalid(
      `adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {${size.slice(0, 2).join(', ')}${k === 3 ? `,${size[2]}` : ''}}`,
      op,
      'output_size',
      size,
      'sizes >= 0',
    );
  if (size.every((s) => s === 1)) {
    const out = t('mean', [x, Array.from({ length: k }, (_, i) => -1 - i), true]);
    return channelsLastOut(x, k) ? t('contiguous', [out], { memory_format: 'channels_last' }) : out;
  }
  return t(`_adaptive_avg_pool${k}d`, [x, size]);
}

/** The 1d ops: the 2d ones over [..., 1, L], checked as aten's adaptive_{avg,max}_pool1d. */
function check1d(kind: Kind, x: Tensor, size: readonly number[]): void {
  const op = `adaptive_${kind}_pool1d`;
  if (x.ndim < 2 || x.ndim > 3)
    throw invalid(
      `Expected 2 to 3 dimensions, but got ${x.ndim}-dimensional tensor for argument #1 'self' (while checking arguments for ${op})`,
      op,
      'self',
      x.ndim,
      '2 or 3 dims',
    );
  if (size.length !== 1)
    throw invalid(
      `${op}() argument 'output_size' should contain one int (got ${size.length})`,
      op,
      'output_size',
      size,
      'one int',
    );
}

/** adaptive_avg_pool2d.out checks out's dtype itself ("expected dtype float for `output` ..."). */
function outDType(op: string, result: Tensor['dtype'], out: Tensor['dtype']): void {
  if (result !== out)
    throw new ResultTypeError(
      `expected dtype ${CPP_TYPE_NAMES[result]} for \`output\` but got dtype ${CPP_TYPE_NAMES[out]}`,
      { op, arg: 'out', got: out, expected: result },
    );
}

function registerAvg(k: 2 | 3): void {
  const intList = k === 2 ? 'SymInt[2]' : 'int[3]';
  const tags = { family: 'pooling' } as const;
  defineOp({
    schema: `_adaptive_avg_pool${k}d(Tensor self, ${intList} output_size) -> Tensor`,
    tags,
    cpu: (a, op) => avgPool(a, k, op.schema.name, 'cpu'),
    meta: (a, op) => avgPool(a, k, op.schema.name, 'meta'),
    webgpu: (a, op) => avgPool(a, k, op.schema.name, 'webgpu'),
  });
  defineDerivative(`_adaptive_avg_pool${k}d`, {
    saves: [],
    formula: (c) => [avgPoolBackward(c.grad, c.shapes.self, shapeWindows(c.shapes.self, c.grad.shape, k))],
  });
  for (const name of [`_adaptive_avg_pool${k}d`, `adaptive_avg_pool${k}d`])
    defineOut(
      `${name}.out(Tensor self, ${intList} output_size, *, Tensor(a!) out) -> Tensor(a!)`,
      tags,
      (a, op) => {
        const x = a.self as Tensor;
        const shape = checkPool('avg', x, a.output_size as number[], k, op);
        return { shape, dtype: x.dtype, strides: outStrides(x, shape, k) };
      },
      {
        cpu: (a, out) => {
          const x = a.self as Tensor;
          avgPoolCpu(x, k, out, windowsOf(x, a.output_size as number[], k), accumulateAdaptive(x, k));
        },
        webgpu: (a, out) => adaptivePoolGPU(a.self as Tensor, k, out),
      },
      outDType,
    );
  defineOp({
    schema: `adaptive_avg_pool${k}d(Tensor self, ${intList} output_size) -> Tensor`,
    tags: { ...tags, decomposed: true },
    composite: (a, op) => adaptiveAvg(a.self as Tensor, a.output_size as number[], k, op.schema.name),
  });
}

function registerMax(k: 2 | 3): void {
  const tags = { family: 'pooling' } as const;
  defineOp({
    schema: `adaptive_max_pool${k}d(Tensor self, int[${k}] output_size) -> (Tensor, Tensor)`,
    tags,
    cpu: (a, op) => maxPool(a, k, op.schema.name, 'cpu'),
    meta: (a, op) => maxPool(a, k, op.schema.name, 'meta'),
    webgpu: (a, op) => maxPool(a, k, op.schema.name, 'webgpu'),
  });
  defineOuts(
    `adaptive_max_pool${k}d.out(Tensor self, int[${k}] output_size, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))`,
    tags,
    (a, op) => {
      const x = a.self as Tensor;
      const shape = checkPool('max', x, a.output_size as number[], k, op);
      const strides = outStrides(x, shape, k);
      return [
        { shape, dtype: x.dtype, strides },
        { shape, dtype: 'int64', strides },
      ];
    },
    (a, [values, indices]) => {
      const x = a.self as Tensor;
      if (values.device === 'webgpu') return adaptivePoolGPU(x, k, values, indices);
      const windows = windowsOf(x, a.output_size as number[], k);
      maxPoolCpu(x, k, values, indices, () => windows);
    },
    { webgpu: true },
  );
  defineDerivative(`adaptive_max_pool${k}d`, {
    saves: ['result'],
    nondiffOutputs: [1],
    formula: (c) => [maxPoolBackward(c.grad, c.results[1], c.shapes.self, k)],
  });
}

export function registerAdaptivePool(): void {
  registerAvg(2);
  registerAvg(3);
  registerMax(2);
  registerMax(3);
  const decomposed = { family: 'pooling', decomposed: true } as const;
  defineOp({
    schema: 'adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor',
    tags: decomposed,
    composite: (a) => {
      const x = a.self as Tensor;
      const size = a.output_size as number[];
      check1d('avg', x, size);
      return t('squeeze', [t('adaptive_avg_pool2d', [t('unsqueeze', [x, -2]), [1, size[0]]]), -2]);
    },
  });
  defineOp({
    schema: 'adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)',
    tags: decomposed,
    composite: (a) => {
      const x = a.self as Tensor;
      const size = a.output_size as number[];
      check1d('max', x, size);
      const out = t('adaptive_max_pool2d', [t('unsqueeze', [x, -2]), [1, size[0]]]) as unknown as Tensor[];
      return out.map((o) => t('squeeze', [o, -2]));
    },
  });
  registerAdaptivePoolPython();
  operatorTable.alias('nn.functional.adaptive_avg_pool1d', 'adaptive_avg_pool1d');
  operatorTable.declare(ADAPTIVE_POOL_API);
}
