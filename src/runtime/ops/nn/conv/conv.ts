/**
 * torch.conv1d / conv2d / conv3d (also with padding='same' / 'valid') and conv_transpose1d / 2d / 3d, which are
 * torch.nn.functional's: aten's CompositeImplicit wrappers around convolution (convolution.ts). Each accepts an
 * unbatched input (batchify), and 'same' pads the input on the right first where the total padding is odd, as
 * _convolution_mode does, so convolution only sees symmetric padding.
 */
import { InvalidArgumentError, ShapeMismatchError, type Tensor } from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import { registerConvolution } from './convolution.ts';

export const NN_CONV_API = {
  convolution: 'function',
  conv1d: 'function',
  conv2d: 'function',
  conv3d: 'function',
  conv_transpose1d: 'function',
  conv_transpose2d: 'function',
  conv_transpose3d: 'function',
} as const satisfies ApiDecl;

/** The input with a batch dim, and whether it had one (aten's batchify). */
function batchify(x: Tensor, dims: number, op: string): [Tensor, boolean] {
  const batched = x.ndim === dims + 2;
  if (!batched && x.ndim !== dims + 1)
    throw new ShapeMismatchError(
      `Expected ${dims + 1}D (unbatched) or ${dims + 2}D (batched) input to ${op}, but got input of size: [${x.shape.join(', ')}]`,
      { op, arg: 'input', got: [...x.shape], expected: `${dims + 1} or ${dims + 2} dims` },
    );
  return [batched ? x : t('unsqueeze', [x, 0]), batched];
}

const ints = (v: unknown, dims: number): number[] => (Array.isArray(v) ? v : new Array(dims).fill(v));

function conv(a: BoundArgs, dims: number, op: string, transposed: boolean): Tensor {
  const [x, batched] = batchify(a.input as Tensor, dims, op);
  const zeros = new Array(dims).fill(0);
  let input = x;
  let padding = a.padding as number[] | string;
  if (typeof padding === 'string') [input, padding] = modePadding(x, a, dims, padding);
  const out = t('convolution', [
    input,
    a.weight,
    a.bias ?? null,
    ints(a.stride, dims),
    ints(padding, dims),
    ints(a.dilation, dims),
    transposed,
    transposed ? ints(a.output_padding, dims) : zeros,
    a.groups,
  ]);
  return batched ? out : t('squeeze', [out, 0]);
}

/**
 * _convolution_mode: 'valid' is no padding; 'same' pads dilation * (kernel - 1) in all, the odd one on the
 * right, which convolution's symmetric padding cannot express, so that extra column is zeros added to the input.
 */
function modePadding(x: Tensor, a: BoundArgs, dims: number, mode: string): [Tensor, number[]] {
  if (mode === 'valid') return [x, new Array(dims).fill(0)];
  if (mode !== 'same')
    throw new InvalidArgumentError(`Invalid padding string: '${mode}'`, {
      op: 'convolution',
      arg: 'padding',
      got: mode,
      expected: "'same' or 'valid'",
    });
  const stride = ints(a.stride, dims);
  if (stride.some((s) => s !== 1))
    throw new InvalidArgumentError("padding='same' is not supported for strided convolutions", {
      op: 'convolution',
      arg: 'padding',
      got: stride,
      expected: 'stride 1',
    });
  const dilation = ints(a.dilation, dims);
  const weight = a.weight as Tensor;
  let input = x;
  const padding = dilation.map((d, i) => {
    const total = d * ((weight.shape[i + 2] ?? 1) - 1);
    const left = Math.floor(total / 2);
    if (total - left > left) {
      // zeros_like of a slice, not a factory naming a device: a traced call must replay on the real device.
      const dim = i + 2;
      const zeros = t('zeros_like', [t('narrow', [input, dim, 0, Math.min(1, input.shape[dim])])]);
      input = t('cat', [[input, zeros], dim]);
    }
    return left;
  });
  return [input, padding];
}

export function registerNnConv(): void {
  registerConvolution();
  const tags = { family: 'nn', decomposed: true } as const;
  for (const dims of [1, 2, 3]) {
    const n = `[${dims}]`;
    const one = dims === 1 ? '[1]' : '1';
    const zero = dims === 1 ? '[0]' : '0';
    const head = `Tensor input, Tensor weight, Tensor? bias=None, int${n} stride=${one}`;
    defineOp({
      schema: `conv${dims}d(${head}, int${n} padding=${zero}, int${n} dilation=${one}, int groups=1) -> Tensor`,
      tags,
      composite: (a) => conv(a, dims, `conv${dims}d`, false),
    });
    defineOp({
      schema: `conv${dims}d.padding(${head}, str padding="valid", int${n} dilation=${one}, int groups=1) -> Tensor`,
      tags,
      composite: (a) => conv(a, dims, `conv${dims}d`, false),
    });
    const transposedTail = `${head}, int${n} padding=${zero}, int${n} output_padding=${zero}, int groups=1, int${n} dilation=${one}) -> Tensor`;
    // Each schema spelled out as one name (target determination reads `conv_transpose${dims}d(` as the op names).
    defineOp({
      schema:
        dims === 1
          ? `conv_transpose${dims}d(${transposedTail}`
          : `conv_transpose${dims}d.input(${transposedTail}`,
      tags,
      composite: (a) => conv(a, dims, `conv_transpose${dims}d`, true),
    });
    for (const name of [`conv${dims}d`, `conv_transpose${dims}d`])
      operatorTable.alias(`nn.functional.${name}`, name);
  }
  operatorTable.declare(NN_CONV_API);
}
