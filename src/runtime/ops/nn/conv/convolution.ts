/**
 * aten's convolution (and its transposed form): the checks of _convolution and check_shape_forward in their
 * order and words, the output geometry and memory format, kernels for cpu (nn/conv/cpu.ts), meta and webgpu
 * (backends/webgpu/conv.ts), and a derivative written in convolution itself (nn/conv/grad.ts).
 */
import { defineDerivative } from '../../../autograd/index.ts';
import { convGPU } from '../../../backends/webgpu/index.ts';
import {
  channelsLastStrides,
  contiguousStrides,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  InvalidArgumentError,
  ShapeMismatchError,
  Tensor,
} from '../../../core/index.ts';
import type { BoundArgs } from '../../../dispatch/index.ts';
import { notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { isChannelsLastStrides } from '../../shape/index.ts';
import { defineOp } from '../../structured.ts';
import { tensorTypeName } from '../embedding/index.ts';
import { convForward, convTransposed, geometry } from './cpu.ts';
import { type ConvParams, convolutionBackward } from './grad.ts';

const OP = 'convolution';

const list = (xs: readonly number[]) => `[${xs.join(', ')}]`;
const invalid = (message: string, arg: string, got: unknown, expected: unknown) =>
  new InvalidArgumentError(message, { op: OP, arg, got, expected });
const mismatch = (message: string, arg: string, got: unknown, expected: unknown) =>
  new ShapeMismatchError(message, { op: OP, arg, got, expected });

/** expand_param_if_needed: one value stands for every spatial dim. */
function expand(xs: readonly number[], name: string, dims: number): number[] {
  if (xs.length === 1) return new Array(dims).fill(xs[0]);
  if (xs.length !== dims)
    throw invalid(
      `expected ${name} to be a single integer value or a list of ${dims} values to match the convolution dimensions, but got ${name}=${list(xs)}`,
      name,
      xs.length,
      dims,
    );
  return [...xs];
}

/** The C++ type name in aten's "Input type (float) and bias type (double)" message. */
const CPP_NAME: Partial<Record<DType, string>> = {
  float32: 'float',
  float64: 'double',
  float16: 'c10::Half',
  bfloat16: 'c10::BFloat16',
  int64: 'long int',
  int32: 'int',
  int16: 'short int',
  int8: 'signed char',
  uint8: 'unsigned char',
  bool: 'bool',
  complex64: 'c10::complex<float>',
  complex128: 'c10::complex<double>',
};

/** _convolution's checks (check_shape_forward, then the backend's dtype checks); the normalised parameters. */
export function convParams(input: Tensor, weight: Tensor, bias: Tensor | null, a: BoundArgs): ConvParams {
  const dims = weight.ndim - 2;
  if (dims <= 0)
    throw mismatch('weight should have at least three dimensions', 'weight', weight.ndim, '>= 3');
  const groups = a.groups as number;
  if (groups <= 0) throw invalid('non-positive groups is not supported', 'groups', groups, '> 0');
  const p: ConvParams = {
    stride: expand(a.stride as number[], 'stride', dims),
    padding: expand(a.padding as number[], 'padding', dims),
    dilation: expand(a.dilation as number[], 'dilation', dims),
    outputPadding: expand(a.output_padding as number[], 'output_padding', dims),
    transposed: a.transposed as boolean,
    groups,
  };
  if (p.padding.some((x) => x < 0))
    throw invalid('negative padding is not supported', 'padding', p.padding, '>= 0');
  if (p.outputPadding.some((x) => x < 0))
    throw invalid('negative output_padding is not supported', 'output_padding', p.outputPadding, '>= 0');
  if (p.stride.some((x) => x <= 0))
    throw invalid('non-positive stride is not supported', 'stride', p.stride, '> 0');
  if (p.dilation.some((x) => x <= 0))
    throw invalid(
      `dilation should be greater than zero, but got ${list(p.dilation)}`,
      'dilation',
      p.dilation,
      '> 0',
    );
  const ws = weight.shape;
  if (input.ndim !== weight.ndim)
    throw mismatch(
      `Expected ${weight.ndim}-dimensional input for ${weight.ndim}-dimensional weight ${list(ws)}, but got ${input.ndim}-dimensional input of size ${list(input.shape)} instead`,
      'input',
      input.ndim,
      weight.ndim,
    );
  if (ws[0] < groups)
    throw mismatch(
      `Given groups=${groups}, expected weight to be at least ${groups} at dimension 0, but got weight of size ${list(ws)} instead`,
      'weight',
      ws[0],
      `>= ${groups}`,
    );
  if (ws[0] % groups !== 0)
    throw mismatch(
      `Given groups=${groups}, expected weight to be divisible by ${groups} at dimension 0, but got weight of size [${list(ws)}] instead`,
      'weight',
      ws[0],
      `a multiple of ${groups}`,
    );
  const channels = p.transposed ? ws[0] : ws[1] * groups;
  const outChannels = p.transposed ? ws[1] * groups : ws[0];
  const given = p.transposed ? 'transposed=1' : `groups=${groups}`;
  if (input.shape[1] !== channels)
    throw mismatch(
      `Given ${given}, weight of size ${list(ws)}, expected input${list(input.shape)} to have ${channels} channels, but got ${input.shape[1]} channels instead`,
      'input',
      input.shape[1],
      channels,
    );
  if (bias && (bias.ndim !== 1 || bias.shape[0] !== outChannels))
    throw mismatch(
      `Given ${p.transposed ? `${given}, ` : ''}weight of size ${list(ws)}, expected bias to be 1-dimensional with ${outChannels} elements, but got bias of size ${list(bias.shape)} instead`,
      'bias',
      [...bias.shape],
      [outChannels],
    );
  if (!p.transposed) {
    const padded = input.shape.slice(2).map((s, i) => s + 2 * p.padding[i]);
    const kernel = ws.slice(2).map((k, i) => p.dilation[i] * (k - 1) + 1);
    if (padded.some((s, i) => s < kernel[i]))
      throw mismatch(
        `Calculated padded input size per channel: (${padded.join(' x ')}). Kernel size: (${kernel.join(' x ')}). Kernel size can't be greater than actual input size`,
        'input',
        padded,
        `at least ${kernel.join(' x ')}`,
      );
  }
  if (bias && bias.dtype !== input.dtype) checkBiasDType(input.dtype, bias.dtype, p, dims);
  if (weight.dtype !== input.dtype)
    throw new DTypeUnsupportedError(
      input.dtype === 'bfloat16'
        ? `Input type (CPUBFloat16Type) and weight type (${tensorTypeName(weight.dtype)}) should be the same or input should be a MKLDNN tensor and weight is a dense tensor`
        : `expected scalar type ${torchName(input.dtype)} but found ${torchName(weight.dtype)}`,
      { op: OP, arg: 'weight', got: weight.dtype, expected: input.dtype },
    );
  if (p.transposed) checkTransposedShape(input, weight, p);
  return p;
}

const torchName = (d: DType) => DTYPE_INFO[d].torchName;

/**
 * A bias of another dtype: the transposed kernels and 2-d convolutions refuse it, each in its own words; the
 * 1-d / 3-d slow kernels cast it to the input's dtype (mkldnn, which takes bfloat16, refuses it).
 */
function checkBiasDType(input: DType, bias: DType, p: ConvParams, dims: number): void {
  const refuse = (message: string) =>
    new DTypeUnsupportedError(message, { op: OP, arg: 'bias', got: bias, expected: input });
  if (p.transposed) throw refuse(`expected scalar type ${torchName(input)} but found ${torchName(bias)}`);
  if (dims === 2)
    throw refuse(`Input type (${CPP_NAME[input]}) and bias type (${CPP_NAME[bias]}) should be the same`);
  if (input === 'bfloat16')
    throw refuse(
      `Input type (CPUBFloat16Type) and bias type (${tensorTypeName(bias)}) should be the same or input should be a MKLDNN tensor and bias is a dense tensor`,
    );
}

/** slow_conv_transpose{2,3}d's shape check, which sees a 1-d convolution as 2-d (height 1). */
function checkTransposedShape(input: Tensor, weight: Tensor, p: ConvParams): void {
  const names = p.stride.length === 3 ? ['depth', 'height', 'width'] : ['height', 'width'];
  const two = <T>(xs: readonly T[], one: T) => (xs.length === 1 ? [one, ...xs] : [...xs]);
  const op = two(p.outputPadding, 0);
  const st = two(p.stride, 1);
  const dl = two(p.dilation, 1);
  if (op.some((x, i) => x >= st[i] && x >= dl[i])) {
    const part = (label: string, xs: number[]) => names.map((n, i) => `${label}_${n}: ${xs[i]}`).join(' ');
    throw invalid(
      `output padding must be smaller than either stride or dilation, but got ${part('output_padding', op)} ${part('stride', st)} ${part('dilation', dl)}`,
      'output_padding',
      p.outputPadding,
      'smaller than stride or dilation',
    );
  }
  const size = outputSize(input.shape, weight.shape, p);
  if (size.some((s) => s < 1))
    throw mismatch(
      `Given input size per channel: (${two(input.shape.slice(2), 1).join(' x ')}). Calculated output size per channel: (${two(size, 1).join(' x ')}). Output size is too small`,
      'input',
      size,
      'at least 1',
    );
}

/** The standard output sizes per spatial dim. */
export function outputSize(inShape: readonly number[], wShape: readonly number[], p: ConvParams): number[] {
  return inShape.slice(2).map((s, i) => {
    const span = p.dilation[i] * (wShape[i + 2] - 1);
    return p.transposed
      ? (s - 1) * p.stride[i] - 2 * p.padding[i] + span + p.outputPadding[i] + 1
      : Math.floor((s + 2 * p.padding[i] - span - 1) / p.stride[i]) + 1;
  });
}

/** A 1-d convolution runs as 2-d on x.unsqueeze(2) in aten: its channels-last test sees that view. */
function as4d(x: Tensor): [number[], number[]] {
  if (x.ndim !== 3) return [[...x.shape], [...x.strides]];
  const [s0, s1, s2] = x.strides;
  return [
    [x.shape[0], x.shape[1], 1, x.shape[2]],
    [s0, s1, x.shape[2] * s2, s2],
  ];
}

/**
 * The output: a non-transposed 1-d / 2-d convolution is channels-last when its input or weight is (aten's
 * thnn / mkldnn channels-last rule); every other convolution is contiguous.
 */
function outputTensor(input: Tensor, weight: Tensor, p: ConvParams, device: Tensor['device']): Tensor {
  const shape = [input.shape[0], p.transposed ? weight.shape[1] * p.groups : weight.shape[0]];
  shape.push(...outputSize(input.shape, weight.shape, p));
  const cl =
    !p.transposed && p.stride.length <= 2 && [input, weight].some((x) => isChannelsLastStrides(...as4d(x)));
  if (!cl) return Tensor.empty(shape, input.dtype, device, contiguousStrides(shape));
  const s4 = channelsLastStrides(shape.length === 4 ? shape : [shape[0], shape[1], 1, shape[2]]);
  return Tensor.empty(shape, input.dtype, device, shape.length === 4 ? s4 : [s4[0], s4[1], s4[3]]);
}

/** The kernel whose dtype list PyTorch 1.13's CPU convolution raises from (its backend choice, by dtype). */
function checkCpuDType(dtype: DType, p: ConvParams): void {
  const three = p.stride.length === 3;
  const dilated = p.dilation.some((d) => d > 1);
  const kernel = p.transposed
    ? `slow_conv_transpose${three ? 3 : 2}d_out_cpu`
    : dilated
      ? 'slow_conv_dilated<>'
      : three
        ? 'compute_columns3d'
        : 'slow_conv2d_cpu';
  const kind = DTYPE_INFO[dtype].kind;
  if (dtype === 'bool') throw notImplementedFor(kernel, dtype, OP, 'input');
  // The transposed and dilated kernels take no int but int64. conv_transpose1d's complex path is PyTorch's
  // complex_convolution (three real convolutions), which this kernel computes directly.
  const narrowInt = kind === 'int' && dtype !== 'int64';
  if ((p.transposed || dilated) && narrowInt) throw notImplementedFor(kernel, dtype, OP, 'input');
  if (p.transposed && kind === 'complex' && p.stride.length > 1)
    throw notImplementedFor(kernel, dtype, OP, 'input');
}

function run(a: BoundArgs, device: Tensor['device']): Tensor {
  const input = a.input as Tensor;
  const weight = a.weight as Tensor;
  const bias = (a.bias as Tensor | null) ?? null;
  const p = convParams(input, weight, bias, a);
  const out = outputTensor(input, weight, p, device);
  if (device === 'meta') return out;
  // The cpu kernels' dtype errors on webgpu too (as matmul's), then the webgpu kernel's own float32 limit.
  checkCpuDType(input.dtype, p);
  if (device === 'webgpu') {
    convGPU(input, weight, bias, out, p, OP);
    return out;
  }
  if (out.numel === 0) return out;
  const geo = geometry(input, out, weight, p);
  // The 1-d / 3-d slow kernels add a bias of another dtype cast to the input's (checkBiasDType).
  const b = bias && bias.dtype !== input.dtype ? t('to', [bias, input.dtype]) : bias;
  if (p.transposed) convTransposed(input, weight, b, out, geo);
  else convForward(input, weight, b, out, geo);
  return out;
}

export function registerConvolution(): void {
  defineOp({
    schema:
      'convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor',
    tags: { family: 'nn' },
    cpu: (a) => run(a, 'cpu'),
    meta: (a) => run(a, 'meta'),
    webgpu: (a) => run(a, 'webgpu'),
  });
  defineDerivative(OP, { saves: ['input', 'weight'], formula: (c) => convolutionBackward(c, convParams) });
}
