/**
 * Fractional max pooling (Graham, 2014) in 2 and 3 dims: aten's fractional_max_pool2d / 3d (windows of a fixed
 * size starting at pseudo-random positions, one uniform sample per plane and axis, generated as aten's
 * generate_intervals does; the max loop and its gradient are nn/pool/windows.ts's), and F's Python layer
 * (`_functional_*`, Python-only): output_ratio, return_indices, and `_random_samples` drawn from the default
 * generator as torch.rand(N, C, 2 | 3) when not given.
 */
import { defineDerivative } from '../../../autograd/index.ts';
import { numberReader } from '../../../backends/cpu/index.ts';
import {
  DimOutOfRangeError,
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  type Tensor,
} from '../../../core/index.ts';
import { type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { defineOuts } from '../../out_define.ts';
import { defineOp } from '../../structured.ts';
import { type AxisWindows, maxPoolBackward, maxPoolCpu } from './windows.ts';

const AXES: Record<number, readonly string[]> = { 2: ['height', 'width'], 3: ['time', 'height', 'width'] };
const shapeStr = (s: readonly number[]) => `[${s.join(', ')}]`;
const invalid = (message: string, op: string, arg: string, got: unknown, expected: string) =>
  new InvalidArgumentError(message, { op, arg, got, expected });

/**
 * aten's generate_intervals: window starts floor((i + u) * alpha) - floor(u * alpha) with alpha = (in - pool) /
 * (out - 1), the last window flush with the end; computed in the input's dtype (float32 for the reduced floats).
 */
function intervals(u: number, inSize: number, outSize: number, pool: number, round: (v: number) => number) {
  const start = new Int32Array(outSize);
  if (outSize > 1) {
    const alpha = round(round(inSize - pool) / round(outSize - 1));
    for (let i = 0; i < outSize - 1; i++)
      start[i] = Math.trunc(round(round(i + u) * alpha)) - Math.trunc(round(u * alpha));
  }
  if (outSize > 0) start[outSize - 1] = inSize - pool;
  return { start, size: new Int32Array(outSize).fill(pool) };
}

interface Checked {
  readonly x: Tensor;
  readonly pool: readonly number[];
  readonly size: readonly number[];
  readonly samples: Tensor;
  readonly shape: number[];
}

/** aten's checks, in its order (meta function, then the kernel's dtype dispatch and samples read). */
function checkFractional(a: BoundArgs, k: number, op: string): Checked {
  const x = a.self as Tensor;
  const pool = a.kernel_size as number[];
  const size = a.output_size as number[];
  const samples = a.random_samples as Tensor;
  const name = `fractional_max_pool${k}d`;
  const what = k === 2 ? 'Ints' : 'three Ints';
  const prefix = k === 2 ? `${name}()` : `${name}_out()`;
  if (pool.length !== k)
    throw invalid(
      `${name}: kernel_size must either be a single Int or tuple of ${what}`,
      op,
      'kernel_size',
      pool,
      `${k}`,
    );
  if (size.length !== k)
    throw invalid(
      `${name}: output_size must either be a single Int or tuple of ${what}`,
      op,
      'output_size',
      size,
      `${k}`,
    );
  if (x.ndim !== k + 1 && x.ndim !== k + 2)
    throw invalid(
      `${prefix}: Expected ${k + 1}D or ${k + 2}D tensor, but got: ${shapeStr(x.shape)}`,
      op,
      'self',
      x.ndim,
      `${k + 1} or ${k + 2} dims`,
    );
  for (let d = 1; d < x.ndim; d++)
    if (x.shape[d] === 0)
      throw invalid(
        `${prefix}: Expected input to have non-zero size for non-batch dimensions, but got${shapeStr(x.shape)} with dimension ${d} being empty.`,
        op,
        'self',
        x.shape,
        'non-empty non-batch dims',
      );
  const spatial = x.shape.slice(x.ndim - k);
  // 2d allows a window reaching the last element; aten's 3d check is one stricter.
  const slack = k === 2 ? 1 : 0;
  spatial.forEach((n, i) => {
    if (size[i] + pool[i] - 1 >= n + slack)
      throw invalid(
        `${prefix}: pool ${AXES[k][i]} ${pool[i]} too large relative to input ${AXES[k][i]} ${n}`,
        op,
        'kernel_size',
        pool,
        `at most ${n - size[i] + slack}`,
      );
  });
  if (DTYPE_INFO[x.dtype].kind !== 'float') throw notImplementedFor(`${name}_out_frame`, x.dtype, op);
  if (samples.dtype !== x.dtype)
    throw new DTypeUnsupportedError(
      `expected scalar type ${DTYPE_INFO[x.dtype].torchName} but found ${DTYPE_INFO[samples.dtype].torchName}`,
      { op, arg: 'random_samples', got: samples.dtype, expected: x.dtype },
    );
  const lead = x.shape.slice(0, x.ndim - k);
  const planes = [x.ndim === k + 2 ? x.shape[0] : 1, lead[lead.length - 1], k];
  // aten reads N * C * k samples without checking; a shorter tensor would be read past its end.
  if (samples.shape.join() !== planes.join())
    throw new InvalidArgumentError(
      `${name}: random_samples must have shape ${shapeStr(planes)}, but got ${shapeStr(samples.shape)}`,
      { op, arg: 'random_samples', got: samples.shape, expected: shapeStr(planes) },
    );
  return { x, pool, size, samples, shape: [...lead, ...size] };
}

/**
 * The windows of every plane from its samples, then the max loop. This file's functions have names of their own
 * (not fill / check / functional): mutation testing finds the ops a kernel serves near the uses of its name.
 */
function fillFractional(c: Checked, k: number, values: Tensor, indices: Tensor): void {
  const { x, pool, size, samples } = c;
  const read = numberReader(samples.dtype);
  const data = samples.storage.data!;
  const [s0, s1, s2] = samples.strides;
  const planes = samples.shape[1];
  const round = x.dtype === 'float64' ? (v: number) => v : Math.fround;
  const spatial = x.shape.slice(x.ndim - k);
  // aten's sample order: width then height in 2d; time, height, width in 3d.
  const axisOfSample = k === 2 ? [1, 0] : [0, 1, 2];
  const windowsOf = (plane: number): AxisWindows[] => {
    const at = samples.storageOffset + Math.floor(plane / planes) * s0 + (plane % planes) * s1;
    const windows: AxisWindows[] = [];
    axisOfSample.forEach((axis, j) => {
      windows[axis] = intervals(read(data, at + j * s2), spatial[axis], size[axis], pool[axis], round);
    });
    return windows;
  };
  maxPoolCpu(x, k, values, indices, windowsOf);
}

function fractionalPool(a: BoundArgs, k: number, op: string, compute: boolean): Tensor[] {
  const c = checkFractional(a, k, op);
  const opts = { dtype: c.x.dtype, device: c.x.device };
  const values = t('empty', [c.shape], opts);
  const indices = t('empty', [c.shape], { ...opts, dtype: 'int64' });
  if (compute) fillFractional(c, k, values, indices);
  return [values, indices];
}

/**
 * A [N, C, k] view of the input shaping the draws (N = 1 unbatched): a factory naming a device would not replay
 * when compiled. An empty plane has no element to view; aten refuses it after the draw anyway.
 */
function drawShape(x: Tensor, k: number): Tensor {
  const n = x.ndim === k + 1 ? 1 : x.shape[0];
  const shape = [n, x.shape[x.ndim - k - 1], k];
  if (x.shape.slice(x.ndim - k).includes(0)) return t('empty', [shape], { dtype: x.dtype, device: x.device });
  let planes = t('flatten', [x, x.ndim - k]);
  if (x.ndim === k + 1) planes = t('unsqueeze', [planes, 0]);
  return t('expand', [t('narrow', [planes, -1, 0, 1]), shape]);
}

/** F.fractional_max_pool2d / 3d: output_ratio turned into sizes, samples drawn when not given. */
function functionalFractional(a: BoundArgs, k: number): Tensor | Tensor[] {
  const x = a.input as Tensor;
  const name = `fractional_max_pool${k}d`;
  let size = a.output_size as number[] | null;
  const ratio = a.output_ratio as number[] | null;
  if (size === null && ratio === null)
    throw invalid(
      `${name} requires specifying either an output_size or an output_ratio`,
      name,
      'output_size',
      null,
      'output_size or output_ratio',
    );
  if (size === null) size = ratio!.map((r, i) => Math.trunc(x.shape[x.ndim - k + i] * r));
  let samples = a._random_samples as Tensor | null;
  if (samples === null) {
    if (x.ndim < k + 1)
      throw new DimOutOfRangeError(
        `Dimension out of range (expected to be in range of [${-x.ndim}, ${x.ndim - 1}], but got ${-k - 1})`,
        { op: name, arg: 'input', got: -k - 1, expected: `in [${-x.ndim}, ${x.ndim - 1}]` },
      );
    samples = t('uniform_', [t('empty_like', [drawShape(x, k)], { memory_format: 'contiguous_format' })]);
  }
  const out = t(name, [x, a.kernel_size, size, samples]) as unknown as Tensor[];
  return a.return_indices ? out : out[0];
}

export function registerFractionalPool(): void {
  for (const k of [2, 3] as const) {
    const name = `fractional_max_pool${k}d`;
    // The op's name spelled in its schemas: target determination reads which ops a file defines from them.
    defineOp({
      schema: `fractional_max_pool${k}d(Tensor self, int[${k}] kernel_size, int[${k}] output_size, Tensor random_samples) -> (Tensor, Tensor)`,
      tags: { family: 'pooling' },
      cpu: (a, op) => fractionalPool(a, k, op.schema.name, true),
      meta: (a, op) => fractionalPool(a, k, op.schema.name, false),
    });
    defineOuts(
      `fractional_max_pool${k}d.output(Tensor self, int[${k}] kernel_size, int[${k}] output_size, Tensor random_samples, *, Tensor(a!) output, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))`,
      { family: 'pooling' },
      (a, op) => {
        const { x, shape } = checkFractional(a, k, op);
        return [
          { shape, dtype: x.dtype },
          { shape, dtype: 'int64' },
        ];
      },
      (a, [values, indices], op) => fillFractional(checkFractional(a, k, op), k, values, indices),
    );
    defineDerivative(name, {
      saves: ['result'],
      nondiffOutputs: [1],
      // PyTorch's autograd refuses a random_samples that requires grad at the call (F's and aten's alike).
      nondiffArgs: ['random_samples'],
      formula: (c) => [maxPoolBackward(c.grad, c.results[1], c.shapes.self, k), null],
    });
    defineOp({
      schema: `_functional_${name}(Tensor input, int[${k}] kernel_size, int[${k}]? output_size=None, float[${k}]? output_ratio=None, bool return_indices=False, Tensor? _random_samples=None) -> Tensor`,
      tags: { family: 'pooling', decomposed: true, pythonOnly: true },
      composite: (a) => functionalFractional(a, k) as Tensor,
    });
    operatorTable.alias(`nn.functional.${name}`, `_functional_${name}`);
  }
}
