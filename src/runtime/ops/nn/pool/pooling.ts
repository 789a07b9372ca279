/**
 * Max and average pooling over 2 or 3 spatial dims: aten's max_pool2d_with_indices / max_pool3d_with_indices
 * (values and int64 flat indices into each input plane) and avg_pool2d / avg_pool3d (with .out), one N-d cpu kernel
 * each that reads the input through its strides and writes every output element once, meta kernels (shape, dtype,
 * and the output layout PyTorch picks: channels_last stays channels_last in 2-d), one webgpu kernel (the pooling
 * kernel of webgpu/pool.ts over sliding windows), and derivatives written in runtime ops (windows.ts's, shared with
 * adaptive and fractional pooling; differentiable, so gradgrad works).
 */
import { defineDerivative } from '../../../autograd/index.ts';
import { poolGPU, slidingWindowsGPU } from '../../../backends/webgpu/index.ts';
import {
  channelsLastStrides,
  contiguousStrides,
  DTYPE_INFO,
  type DType,
  InvalidArgumentError,
  type Shape,
  Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { defineOut, notImplementedFor } from '../../op_helpers.ts';
import { defineOuts } from '../../out_define.ts';
import { isChannelsLast } from '../../shape/index.ts';
import { defineOp } from '../../structured.ts';
import { type PoolGeometry, type PoolKind, poolGeometry, poolLists } from './geometry.ts';
import {
  avgPoolBackward,
  avgPoolCpu,
  type Divide,
  maxPoolBackward,
  maxPoolCpu,
  slidingWindows,
} from './windows.ts';

const tags = { family: 'nn' } as const;

/** The geometry of a bound call of one of the four kernel ops. */
export function geometryOf(op: string, kind: PoolKind, nd: number, shape: Shape, a: BoundArgs, cl = false) {
  const lists = poolLists(
    op,
    nd,
    kind,
    a.kernel_size as number[],
    a.stride as number[],
    a.padding as number[],
    kind === 'max' ? (a.dilation as number[]) : [1],
  );
  if (kind === 'avg') {
    // avg_pool3d checks the dim count before the divisor; avg_pool2d reads size(-3) later.
    if (nd === 3 && shape.length !== 4 && shape.length !== 5)
      throw new InvalidArgumentError('non-empty 4D or 5D (batch mode) tensor expected for input', {
        op,
        arg: 'self',
        got: shape.length,
        expected: '4D or 5D',
      });
    checkDivisor(op, a);
  }
  return poolGeometry(op, kind, shape, lists, a.ceil_mode as boolean, cl);
}

function checkDivisor(op: string, a: BoundArgs): void {
  if (a.divisor_override === 0)
    throw new InvalidArgumentError('divisor must be not zero', {
      op,
      arg: 'divisor_override',
      got: 0,
      expected: 'a nonzero divisor',
    });
}

/** The output layout: a 4-d channels_last input pools to channels_last (2-d pooling only, as in 1.13's cpu). */
function outputStrides(x: Tensor, shape: number[], nd: number): number[] {
  return nd === 2 && isChannelsLast(x) ? channelsLastStrides(shape) : contiguousStrides(shape);
}

/** The dtypes PyTorch 1.13's cpu kernels take, plus float16 / bfloat16 everywhere (op_db's deviations). */
function checkDType(x: Tensor, kind: PoolKind, kernel: string, op: string): void {
  const k = DTYPE_INFO[x.dtype].kind;
  if (k !== 'float' && !(kind === 'avg' && x.dtype === 'int64'))
    throw notImplementedFor(
      kernel,
      x.dtype,
      op,
      'self',
      kind === 'avg' ? 'a floating dtype or int64' : 'a floating dtype',
    );
}

interface KernelOp {
  readonly name: string;
  readonly nd: 2 | 3;
  readonly kind: PoolKind;
  /** The name PyTorch's dtype dispatch reports. */
  readonly kernel: string;
}

const KERNEL_OPS: readonly KernelOp[] = [
  { name: 'max_pool2d_with_indices', nd: 2, kind: 'max', kernel: 'max_pool2d' },
  { name: 'max_pool3d_with_indices', nd: 3, kind: 'max', kernel: 'max_pool3d_with_indices_cpu' },
  { name: 'avg_pool2d', nd: 2, kind: 'avg', kernel: 'avg_pool2d' },
  { name: 'avg_pool3d', nd: 3, kind: 'avg', kernel: 'avg_pool3d_out_frame' },
];

/** The user-facing name in the size checks (max_pool2d, not max_pool2d_with_indices). */
const shortName = (o: KernelOp) => o.name.replace('_with_indices', '');

function outputSpec(o: KernelOp, a: BoundArgs) {
  const x = a.self as Tensor;
  const cl = o.nd === 2 && isChannelsLast(x);
  const g = geometryOf(shortName(o), o.kind, o.nd, x.shape, a, cl);
  const shape = [...g.lead, ...g.output];
  return { g, shape, strides: outputStrides(x, shape, o.nd) };
}

/**
 * avg_pool's divisor: divisor_override, or the window's size counting the padding inside input + padding
 * (count_include_pad) or not; a window with no element inside the input is 0, and int64 divides with truncation,
 * as C++.
 */
const avgDivide =
  (includePad: boolean, divisor: number | null, int: boolean): Divide =>
  (sum, kd, kh, kw, ed, eh, ew) => {
    if (kd * kh * kw === 0) return 0;
    const q = sum / (divisor ?? (includePad ? ed * eh * ew : kd * kh * kw));
    return int ? Math.trunc(q) : q;
  };

/** The windows of each spatial axis (the cpu kernels' and avg_pool's gradient's). */
const windowsOf = (g: PoolGeometry) =>
  g.input.map((n, i) =>
    slidingWindows(n, g.output[i], g.kernel[i], g.stride[i], g.padding[i], g.dilation[i]),
  );

/** Fills `out` (and `indices`) on their device: the cpu loop nest or one webgpu thread per output element. */
function fill(o: KernelOp, a: BoundArgs, g: PoolGeometry, out: Tensor, indices: Tensor | null): void {
  const x = a.self as Tensor;
  const includePad = a.count_include_pad as boolean;
  const divisor = (a.divisor_override as number | null) ?? null;
  if (out.device === 'cpu') {
    const w = windowsOf(g);
    if (indices) maxPoolCpu(x, g.nd, out, indices, () => w);
    else avgPoolCpu(x, g.nd, out, w, (v) => v, avgDivide(includePad, divisor, x.dtype === 'int64'));
    return;
  }
  if (out.device !== 'webgpu') return;
  if (x.dtype !== 'float32')
    throw notImplementedFor(`${o.name} on webgpu`, x.dtype, o.name, 'self', 'float32');
  poolGPU({
    input: x,
    nd: g.nd,
    out,
    indices,
    windows: slidingWindowsGPU(g.kernel, g.stride, g.padding, g.dilation),
    divide: { includePad, divisor: divisor ?? 0 },
  });
}

function run(o: KernelOp, a: BoundArgs, device: 'cpu' | 'meta' | 'webgpu'): Tensor[] {
  const x = a.self as Tensor;
  const { g, shape, strides } = outputSpec(o, a);
  checkDType(x, o.kind, o.kernel, o.name);
  const out = Tensor.empty(shape, x.dtype, device, strides);
  const indices = o.kind === 'max' ? Tensor.empty(shape, 'int64', device, strides) : null;
  fill(o, a, g, out, indices);
  return indices ? [out, indices] : [out];
}

export const POOLING_KERNEL_API = {
  max_pool2d_with_indices: 'function',
  max_pool3d_with_indices: 'function',
  avg_pool2d: 'function',
  avg_pool3d: 'function',
} as const satisfies ApiDecl;

export function registerPoolingKernels(): void {
  const dims = (nd: number) => `int[${nd}]`;
  for (const o of KERNEL_OPS) {
    const i = dims(o.nd);
    const params =
      o.kind === 'max'
        ? `Tensor self, ${i} kernel_size, ${i} stride=[], ${i} padding=0, ${i} dilation=1, bool ceil_mode=False`
        : `Tensor self, ${i} kernel_size, ${i} stride=[], ${i} padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None`;
    const result = o.kind === 'max' ? '(Tensor, Tensor)' : 'Tensor';
    const pick = (r: Tensor[]) => (o.kind === 'max' ? r : r[0]);
    defineOp({
      schema: `${o.name}(${params}) -> ${result}`,
      tags,
      cpu: (a) => pick(run(o, a, 'cpu')),
      meta: (a) => pick(run(o, a, 'meta')),
      webgpu: (a) => pick(run(o, a, 'webgpu')),
    });
    const node = `${o.kind === 'max' ? 'MaxPool' : 'AvgPool'}${o.nd}D${o.kind === 'max' ? 'WithIndices' : ''}Backward0`;
    if (o.kind === 'max') {
      defineDerivative(o.name, {
        name: node,
        saves: ['result'],
        nondiffOutputs: [1],
        formula: (c) => [maxPoolBackward(c.grad, c.results[1], c.shapes.self, o.nd)],
      });
      defineOuts(
        `${o.name}.out(${params}, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))`,
        tags,
        (a) => {
          const { shape, strides } = outputSpec(o, a);
          const x = a.self as Tensor;
          checkDType(x, o.kind, o.kernel, o.name);
          return [
            { shape, strides, dtype: x.dtype },
            { shape, strides, dtype: 'int64' },
          ];
        },
        (a, [out, indices]) => fill(o, a, outputSpec(o, a).g, out, indices),
        { webgpu: true },
      );
    } else {
      const fillOut = (a: BoundArgs, out: Tensor) => {
        checkDType(a.self as Tensor, o.kind, o.kernel, o.name);
        fill(o, a, outputSpec(o, a).g, out, null);
      };
      defineDerivative(o.name, {
        name: node,
        saves: [],
        formula: (c) => {
          const g = geometryOf(shortName(o), 'avg', o.nd, c.shapes.self, c.args);
          const divisor = (c.args.divisor_override as number | null) ?? null;
          const divide = avgDivide(c.args.count_include_pad as boolean, divisor, false);
          return [avgPoolBackward(c.grad, c.shapes.self, windowsOf(g), divide)];
        },
      });
      defineOut(
        `${o.name}.out(${params}, *, Tensor(a!) out) -> Tensor(a!)`,
        tags,
        (a) => {
          const { shape, strides } = outputSpec(o, a);
          return { shape, strides, dtype: (a.self as Tensor).dtype as DType };
        },
        { cpu: fillOut, webgpu: fillOut },
        'exact',
      );
    }
  }
  operatorTable.declare(POOLING_KERNEL_API);
}
