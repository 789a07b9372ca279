/**
 * Padding: aten's constant_pad_nd (PyTorch's own algorithm: a filled output, the input copied into its middle,
 * negative pads cropping first), reflection_pad{1,2,3}d, replication_pad{1,2,3}d and _pad_circular (one gather
 * kernel per device: each output element reads the input element its coordinates map to), and aten's `pad`
 * (F.pad), which picks one of them by mode and rank. The derivatives are written in runtime ops (nn/pad/backward.ts),
 * so gradgrad works.
 */
import { defineDerivative } from '../../../autograd/index.ts';
import { elementCopier } from '../../../backends/cpu/index.ts';
import { type PadDim, type PadMode, padGPU } from '../../../backends/webgpu/index.ts';
import {
  channelsLastStrides,
  contiguousStrides,
  DTYPE_INFO,
  InvalidArgumentError,
  NotImplementedError,
  type Scalar,
  ShapeMismatchError,
  Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { defineOut, notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { copyOn } from '../../out_write.ts';
import { isChannelsLast } from '../../shape/index.ts';
import { defineOp, defineStructured, type OutSpec } from '../../structured.ts';
import { padBackward } from './backward.ts';
import { checkGatherPad, circularDims, type GatherKind, gatherDims, padPairs } from './checks.ts';

export const PAD_API = { constant_pad_nd: 'function' } as const satisfies ApiDecl;

const tags = { family: 'shape' } as const;

const invalid = (op: string, message: string, arg: string, got: unknown, expected: string) =>
  new InvalidArgumentError(message, { op, arg, got, expected });

/** constant_pad_nd's checks, the crop of the input by negative pads, and the output shape. */
function constantPadPlan(self: Tensor, pad: readonly number[]) {
  const op = 'constant_pad_nd';
  if (pad.length % 2 !== 0)
    throw invalid(
      op,
      `Length of pad must be even but instead it equals ${pad.length}`,
      'pad',
      pad.length,
      'even',
    );
  const nd = self.dim();
  const padded = pad.length / 2;
  if (padded > nd)
    throw invalid(
      op,
      `Length of pad should be no more than twice the number of dimensions of the input. Pad length is ${pad.length}while the input has ${nd}dimensions.`,
      'pad',
      pad.length,
      `at most ${2 * nd}`,
    );
  let crop = self;
  let positive = false;
  const lead = nd - padded;
  for (let d = lead; d < nd; d++) {
    const [l, r] = [pad[2 * (nd - d - 1)], pad[2 * (nd - d - 1) + 1]];
    if (l < 0) crop = t('narrow', [crop, d, -l, crop.shape[d] + l]);
    else if (l !== 0) positive = true;
    if (r < 0) crop = t('narrow', [crop, d, 0, crop.shape[d] + r]);
    else if (r !== 0) positive = true;
  }
  const shape = self.shape.map((n, d) => {
    if (d < lead) return n;
    const [l, r] = [pad[2 * (nd - d - 1)], pad[2 * (nd - d - 1) + 1]];
    const size = n + l + r;
    if (positive && size <= 0)
      throw new ShapeMismatchError(
        `The input size ${n}, plus negative padding ${l} and ${r} resulted in a negative output size, which is invalid. Check dimension ${d} of your input.`,
        { op, arg: 'pad', got: size, expected: 'a positive size' },
      );
    return size;
  });
  return { crop, positive, shape };
}

/** The output's middle, where the (cropped) input goes. */
function middle(out: Tensor, pad: readonly number[]): Tensor {
  const nd = out.dim();
  let mid = out;
  for (let d = nd - pad.length / 2; d < nd; d++) {
    const [l, r] = [pad[2 * (nd - d - 1)], pad[2 * (nd - d - 1) + 1]];
    if (l > 0) mid = t('narrow', [mid, d, l, mid.shape[d] - l]);
    if (r > 0) mid = t('narrow', [mid, d, 0, mid.shape[d] - r]);
  }
  return mid;
}

/**
 * constant_pad_nd: all pads non-positive is a crop (a copy); else a filled output (channels_last kept, as
 * suggest_memory_format does) with the cropped input copied into its middle. A kernel, not a composite: its output
 * is allocated on the input's device, which a traced factory call would not follow.
 */
function constantPadNd(self: Tensor, pad: readonly number[], value: Scalar): Tensor {
  const { crop, positive, shape } = constantPadPlan(self, pad);
  if (!positive) return t('clone', [crop]);
  const strides = isChannelsLast(self) ? channelsLastStrides(shape) : contiguousStrides(shape);
  const out = Tensor.empty(shape, self.dtype, self.device, strides);
  t('fill_', [out, value]);
  t('copy_', [middle(out, pad), crop]);
  return out;
}

/** The gather pads' kernels: one per device, over the dims the op pads (`dims` maps every output dim). */
function gatherCpu(out: Tensor, self: Tensor, mode: PadMode, dims: readonly PadDim[]): void {
  if (out.numel === 0) return;
  const maps = dims.map((d, k) => Int32Array.from({ length: out.shape[k] }, (_, i) => padSource(mode, d, i)));
  const copy = elementCopier(self.dtype);
  const [od, sd] = [out.storage.data!, self.storage.data!];
  const last = out.ndim - 1;
  const [w, os, ss, lastMap] = [out.shape[last], out.strides[last], self.strides[last], maps[last]];
  const pos = new Array<number>(last).fill(0);
  for (let row = out.numel / w; row > 0; row--) {
    let o = out.storageOffset;
    let s = self.storageOffset;
    for (let d = 0; d < last; d++) {
      o += pos[d] * out.strides[d];
      s += maps[d][pos[d]] * self.strides[d];
    }
    for (let i = 0; i < w; i++) copy(od, o + i * os, sd, s + lastMap[i] * ss);
    for (let d = last - 1; d >= 0; d--) {
      if (++pos[d] < out.shape[d]) break;
      pos[d] = 0;
    }
  }
}

/** The input index output index `i` reads along a dim (the webgpu kernel computes the same). */
export function padSource(mode: PadMode, d: PadDim, i: number): number {
  const j = i - d.a;
  if (mode === 'replicate') return Math.min(Math.max(j, 0), d.n - 1);
  if (mode === 'circular') return d.c0 + (((j % d.m) + d.m) % d.m);
  const r = Math.abs(j);
  return d.n - 1 - Math.abs(d.n - 1 - r);
}

/** PyTorch's backward node name: ReflectionPad1DBackward0. */
const nodeName = (name: string) =>
  `${name.replace(/(^|_)(\w)/g, (_m, _s, c: string) => c.toUpperCase()).replace(/d$/, 'D')}Backward0`;

function defineGatherPad(kind: GatherKind, k: number): void {
  const circular = kind === 'circular';
  const name = circular ? '_pad_circular' : `${kind === 'reflect' ? 'reflection' : 'replication'}_pad${k}d`;
  // The dtype dispatch names PyTorch's errors quote.
  const kernel = kind === 'reflect' && k < 3 ? name : `${name}_cpu`;
  const padOf = (a: BoundArgs) => (circular ? a.pad : a.padding) as number[];
  const dimsOf = (a: BoundArgs): PadDim[] => {
    const self = a.self as Tensor;
    const pad = padOf(a);
    return circular ? circularDims(self, pad) : gatherDims(checkGatherPad(kind, k, self, pad), self);
  };
  const checkDType = (self: Tensor) => {
    const dk = DTYPE_INFO[self.dtype].kind;
    if (!circular && dk !== 'float' && dk !== 'complex')
      throw notImplementedFor(kernel, self.dtype, name, 'self', 'a floating or complex dtype');
    return self;
  };
  const meta = (a: BoundArgs): OutSpec => {
    const self = a.self as Tensor;
    dimsOf(a);
    const pairs = padPairs(self.dim(), padOf(a));
    const shape = self.shape.map((n, d) => n + pairs[d][0] + pairs[d][1]);
    return { shape, dtype: self.dtype, strides: contiguousStrides(shape) };
  };
  const schema = `${name}(Tensor self, ${circular ? 'int[] pad' : `int[${2 * k}] padding`}) -> Tensor`;
  const impl = {
    cpu: (a: BoundArgs, out: Tensor) => gatherCpu(out, checkDType(a.self as Tensor), kind, dimsOf(a)),
    webgpu: (a: BoundArgs, out: Tensor) => padGPU(out, checkDType(a.self as Tensor), kind, dimsOf(a)),
  };
  // Structured kernels: out must have the result's dtype (circular pad has no out= overload).
  defineStructured({ schema, tags, meta, impl, out: !circular, outRule: 'exact' });
  defineDerivative(name, {
    ...(!circular && { name: nodeName(name) }),
    saves: [],
    formula: (c) => [padBackward(c.grad, kind, padPairs(c.shapes.self.length, padOf(c.args)), c.shapes.self)],
  });
}

const MODES = ['constant', 'reflect', 'replicate', 'circular'] as const;

/** aten::pad (F.pad): constant_pad_nd, or the mode's kernel for 1 to 3 padded dims of a batched or unbatched input. */
function pad(self: Tensor, padding: readonly number[], mode: string, value: number | null): Tensor {
  const op = 'pad';
  if (!(MODES as readonly string[]).includes(mode))
    throw new NotImplementedError(`Unrecognised padding mode ${mode}`, {
      op,
      arg: 'mode',
      got: mode,
      expected: MODES.join(', '),
    });
  if (padding.length % 2 !== 0)
    throw invalid(op, 'Padding length must be divisible by 2', 'pad', padding.length, 'even');
  const nd = self.dim();
  if (padding.length > 2 * nd)
    throw invalid(op, 'Padding length too large', 'pad', padding.length, `at most ${2 * nd}`);
  if (mode === 'constant') return t('constant_pad_nd', [self, padding, value ?? 0]);
  if (value !== null && value !== 0)
    throw invalid(op, `Padding mode "${mode}" doesn't take in value argument`, 'value', value, 'None');
  const k = padding.length / 2;
  if (k >= 1 && k <= 3 && (nd === k + 1 || nd === k + 2)) {
    if (mode === 'circular') return t('_pad_circular', [self, padding]);
    return t(`${mode === 'reflect' ? 'reflection' : 'replication'}_pad${k}d`, [self, padding]);
  }
  throw new NotImplementedError(
    'Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now',
    {
      op,
      arg: 'pad',
      got: `${padding.length} pads of a ${nd}-dim input`,
      expected: '2, 4 or 6 pads of a 2- to 5-dim input (one or two leading dims)',
    },
  );
}

const constantPadKernel = (a: BoundArgs) =>
  constantPadNd(a.self as Tensor, a.pad as number[], a.value as Scalar);

export function registerPad(): void {
  defineOp({
    schema: 'constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor',
    tags,
    ...Object.fromEntries(['cpu', 'meta', 'webgpu'].map((k) => [k, constantPadKernel])),
  });
  defineDerivative('constant_pad_nd', {
    saves: [],
    formula: (c) => [t('constant_pad_nd', [c.grad, (c.args.pad as number[]).map((p) => -p)])],
  });
  // The generated out= wrapper: the functional result copied (any dtype it casts to) into the resized out.
  const outMeta = (a: BoundArgs): OutSpec => {
    const self = a.self as Tensor;
    return { shape: constantPadPlan(self, a.pad as number[]).shape, dtype: self.dtype };
  };
  const outImpl = (a: BoundArgs, out: Tensor) =>
    copyOn(out, constantPadNd(a.self as Tensor, a.pad as number[], a.value as Scalar));
  defineOut(
    'constant_pad_nd.out(Tensor self, int[] pad, Scalar value=0, *, Tensor(a!) out) -> Tensor(a!)',
    tags,
    outMeta,
    { cpu: outImpl, webgpu: outImpl },
    () => {},
  );
  for (const k of [1, 2, 3]) {
    defineGatherPad('reflect', k);
    defineGatherPad('replicate', k);
  }
  defineGatherPad('circular', 0);
  defineOp({
    schema: 'pad(Tensor self, int[] pad, str mode="constant", float? value=None) -> Tensor',
    tags: { ...tags, decomposed: true },
    composite: (a) => pad(a.self as Tensor, a.pad as number[], a.mode as string, a.value as number | null),
  });
  operatorTable.alias('nn.functional.pad', 'pad');
  operatorTable.declare(PAD_API);
}
