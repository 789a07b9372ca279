/**
 * Error inputs of the convolution OpInfos (nn/conv/conv.ts), each with PyTorch 1.13's message: batchify's input rank,
 * check_shape_forward's channel, group, bias and kernel-size checks, the parameter checks, the dtype checks of the
 * backend PyTorch picks (mkldnn for 2-d float32, the slow kernels otherwise), and the transposed shape checks.
 */
import { errorCase, f32 } from '../../../families/shape.ts';
import type { ErrorInput, SampleContext } from '../../../types.ts';

const SHAPE = 'E_SHAPE_MISMATCH';
const INVALID = 'E_INVALID_ARGUMENT';
const DTYPE = 'E_DTYPE_UNSUPPORTED';

export function convErrors(dims: number) {
  return (ctx: SampleContext): ErrorInput[] => {
    const f = f32(ctx);
    const sp = (n: number) => new Array(dims).fill(n) as number[];
    const x = (c = 2, n = 4) => f([1, c, ...sp(n)]);
    const w = (o = 3, c = 2, k = 2) => f([o, c, ...sp(k)]);
    const name = `conv${dims}d`;
    return [
      errorCase(
        f([4]),
        [w()],
        {},
        SHAPE,
        new RegExp(
          `Expected ${dims + 1}D \\(unbatched\\) or ${dims + 2}D \\(batched\\) input to ${name}, but got input of size: \\[4\\]`,
        ),
      ),
      errorCase(
        x(3),
        [w(4)],
        { groups: 2 },
        SHAPE,
        /Given groups=2, weight of size \[4, 2, .*\], expected input\[1, 3, .*\] to have 4 channels, but got 3 channels instead/,
      ),
      errorCase(
        x(4),
        [w(3)],
        { groups: 2 },
        SHAPE,
        /Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size \[\[3, 2, .*\]\] instead/,
      ),
      errorCase(
        x(2, 2),
        [w(3, 2, 3)],
        {},
        SHAPE,
        /Calculated padded input size per channel: \(2( x 2)*\)\. Kernel size: \(3( x 3)*\)\. Kernel size can't be greater than actual input size/,
      ),
      errorCase(
        x(),
        [w()],
        { stride: 2, padding: 'same' },
        INVALID,
        /padding='same' is not supported for strided convolutions/,
      ),
      errorCase(x(), [w()], { padding: 'foo' }, INVALID, /Invalid padding string: 'foo'/),
      errorCase(
        x(),
        [w(), f([2])],
        {},
        SHAPE,
        /expected bias to be 1-dimensional with 3 elements, but got bias of size \[2\] instead/,
      ),
      errorCase(x(), [w()], { stride: 0 }, INVALID, /non-positive stride is not supported/),
      errorCase(x(), [w()], { padding: -1 }, INVALID, /negative padding is not supported/),
      errorCase(
        x(),
        [w()],
        { dilation: 0 },
        INVALID,
        /dilation should be greater than zero, but got \[0(, 0)*\]/,
      ),
      errorCase(x(), [w()], { groups: 0 }, INVALID, /non-positive groups is not supported/),
      errorCase(x(), [f([3, 2])], {}, SHAPE, /weight should have at least three dimensions/),
      errorCase(
        x(),
        [w()],
        { stride: sp(1).concat(1) },
        INVALID,
        new RegExp(
          `expected stride to be a single integer value or a list of ${dims} values to match the convolution dimensions, but got stride=\\[${sp(1).concat(1).join(', ')}\\]`,
        ),
      ),
      errorCase(
        x(4),
        [w(1)],
        { groups: 2 },
        SHAPE,
        /Given groups=2, expected weight to be at least 2 at dimension 0, but got weight of size \[1, 2, .*\] instead/,
      ),
      // A weight of another rank with one-element lists: conv1d's only (the others' output_padding fails first).
      ...(dims === 1
        ? [
            errorCase(
              x(),
              [f([3, 2, 2, 2])],
              { stride: [1], padding: [0], dilation: [1] },
              SHAPE,
              /Expected 4-dimensional input for 4-dimensional weight \[3, 2, 2, 2\], but got 3-dimensional input of size \[1, 2, 4\] instead/,
            ),
          ]
        : []),
      errorCase(x(), [w().double()], {}, DTYPE, /expected scalar type Float but found Double/),
      // A bias of another dtype: refused by the 2-d kernels; cast by the 1-d / 3-d slow ones, not by mkldnn's.
      dims === 2
        ? errorCase(
            x(),
            [w(), f([3]).double()],
            {},
            DTYPE,
            /Input type \(float\) and bias type \(double\) should be the same/,
          )
        : errorCase(
            x().to('bfloat16'),
            [w().to('bfloat16'), f([3])],
            {},
            DTYPE,
            /Input type \(CPUBFloat16Type\) and bias type \(torch.FloatTensor\) should be the same or input should be a MKLDNN tensor and bias is a dense tensor/,
          ),
      errorCase(
        x().to('bool'),
        [w().to('bool')],
        {},
        DTYPE,
        new RegExp(`"${dims === 3 ? 'compute_columns3d' : 'slow_conv2d_cpu'}" not implemented for 'Bool'`),
      ),
      errorCase(
        x().to('int32'),
        [w().to('int32')],
        { dilation: 2 },
        DTYPE,
        /"slow_conv_dilated<>" not implemented for 'Int'/,
      ),
    ];
  };
}

export function transposedErrors(dims: number) {
  return (ctx: SampleContext): ErrorInput[] => {
    const f = f32(ctx);
    const sp = (n: number) => new Array(dims).fill(n) as number[];
    const x = (c = 2, n = 4) => f([1, c, ...sp(n)]);
    const w = (c = 2, o = 3) => f([c, o, ...sp(2)]);
    const name = `conv_transpose${dims}d`;
    const kernel = `slow_conv_transpose${dims === 3 ? 3 : 2}d_out_cpu`;
    const errors = [
      errorCase(
        f([4]),
        [w()],
        {},
        SHAPE,
        new RegExp(
          `Expected ${dims + 1}D \\(unbatched\\) or ${dims + 2}D \\(batched\\) input to ${name}, but got input of size: \\[4\\]`,
        ),
      ),
      errorCase(
        x(3),
        [w()],
        {},
        SHAPE,
        /Given transposed=1, weight of size \[2, 3, .*\], expected input\[1, 3, .*\] to have 2 channels, but got 3 channels instead/,
      ),
      errorCase(
        x(4),
        [w(4)],
        { groups: 3 },
        SHAPE,
        /Given groups=3, expected weight to be divisible by 3 at dimension 0/,
      ),
      errorCase(
        x(),
        [w(), f([2])],
        {},
        SHAPE,
        /Given transposed=1, weight of size \[2, 3, .*\], expected bias to be 1-dimensional with 3 elements, but got bias of size \[2\] instead/,
      ),
      errorCase(
        x(),
        [w()],
        { output_padding: 1 },
        INVALID,
        /output padding must be smaller than either stride or dilation, but got output_padding_/,
      ),
      errorCase(x(), [w()], { output_padding: -1 }, INVALID, /negative output_padding is not supported/),
      // A weight of another rank, every list of one element: _convolution's own rank check.
      errorCase(
        x(),
        [f(dims === 2 ? [2, 3, 2] : [2, 3, 2, 2])],
        { stride: [1], padding: [0], output_padding: [0], dilation: [1] },
        SHAPE,
        new RegExp(
          `Expected ${dims === 2 ? 3 : 4}-dimensional input for ${dims === 2 ? 3 : 4}-dimensional weight \\[.*\\], but got ${dims + 2}-dimensional input of size`,
        ),
      ),
      errorCase(x(), [w(), f([3]).double()], {}, DTYPE, /expected scalar type Float but found Double/),
      errorCase(
        x(2, 2),
        [w()],
        { padding: 2 },
        SHAPE,
        /Calculated output size per channel: \(.*\)\. Output size is too small/,
      ),
      errorCase(
        x().to('int32'),
        [w().to('int32')],
        {},
        DTYPE,
        new RegExp(`"${kernel}" not implemented for 'Int'`),
      ),
      errorCase(
        x().to('bool'),
        [w().to('bool')],
        {},
        DTYPE,
        new RegExp(`"${kernel}" not implemented for 'Bool'`),
      ),
    ];
    if (dims > 1)
      errors.push(
        errorCase(
          x().to('complex64'),
          [w().to('complex64')],
          {},
          DTYPE,
          new RegExp(`"${kernel}" not implemented for 'ComplexFloat'`),
        ),
      );
    return errors;
  };
}
