/**
 * Error inputs of the pooling OpInfos: each raises what PyTorch 1.13 raises (the regexes match its messages),
 * from the list-length checks, pooling_output_shape, the shape checks, and F.max_unpoolNd's output-size rule.
 */
import { errorCase, exact, f32, indexOf, onValues } from '../../../families/shape.ts';
import type { ErrorInput, SampleContext } from '../../../types.ts';

export function poolErrors(nd: number, kind: 'max' | 'avg') {
  return (ctx: SampleContext): ErrorInput[] => {
    const f = f32(ctx);
    const spatial = new Array(nd).fill(4);
    const x = f([1, 2, ...spatial]);
    const fn = `${kind}_pool${nd}d`;
    // max_pool1d without return_indices checks in its own words (check_max_pool1d).
    const own = nd === 1 && kind === 'max';
    const errors = [
      errorCase(
        x,
        [2, 1, 2],
        {},
        'E_INVALID_ARGUMENT',
        own
          ? /max_pool1d\(\) padding should be at most half of kernel size, but got padding=2 and kernel_size=2/
          : /pad should be at most half of kernel size, but got pad=2 and kernel_size=2/,
      ),
      errorCase(
        x,
        [new Array(nd).fill(0)],
        {},
        'E_INVALID_ARGUMENT',
        own ? /max_pool1d\(\) kernel_size must be greater than zero, but got 0/ : /stride should not be zero/,
      ),
      ...(own
        ? [
            errorCase(
              x,
              [2, 1, 1],
              { return_indices: true, dilation: 0 },
              'E_INVALID_ARGUMENT',
              /dilation should be greater than zero, but got dilationH: 1 dilationW: 0/,
            ),
            errorCase(
              x,
              [2, [1, 1]],
              {},
              'E_INVALID_ARGUMENT',
              /max_pool1d\(\) stride must be None, an int, list of ints, or tuple of ints of size 1 but got size 2/,
            ),
            // Without grad, max_pool1d_impl refuses integers itself (the indices kernel would say max_pool2d).
            errorCase(
              indexOf(ctx, [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 4]),
              [2],
              {},
              'E_DTYPE_UNSUPPORTED',
              /"max_pool1d_impl" not implemented for 'Long'/,
            ),
          ]
        : []),
    ];
    // An integer input: avg takes int64 only, max none (max_pool1d with indices goes through max_pool2d).
    const kernel = {
      max: ['max_pool2d', 'max_pool2d', 'max_pool3d_with_indices_cpu'],
      avg: ['avg_pool2d', 'avg_pool2d', 'avg_pool3d_out_frame'],
    }[kind][nd - 1];
    errors.push(
      errorCase(
        exact(ctx, new Array(2 * 4 ** nd).fill(1), [1, 2, ...spatial], 'int32'),
        [2],
        own ? { return_indices: true } : {},
        'E_DTYPE_UNSUPPORTED',
        new RegExp(`"${kernel}" not implemented for 'Int'`),
      ),
    );
    if (nd === 1)
      return [
        ...errors,
        errorCase(
          x,
          [[2, 2]],
          kind === 'max' ? { return_indices: true } : {},
          'E_INVALID_ARGUMENT',
          new RegExp(`${fn}\\(\\) argument 'kernel_size' should contain one int \\(got 2\\)`),
        ),
        errorCase(
          f([5]),
          [2],
          kind === 'max' ? { return_indices: true } : {},
          'E_INVALID_ARGUMENT',
          new RegExp(
            `Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' \\(while checking arguments for ${fn}\\)`,
          ),
        ),
        errorCase(
          f([2, 0, 5]),
          [2],
          {},
          'E_INVALID_ARGUMENT',
          kind === 'max'
            ? /max_pool1d: Expected 2D or 3D \(batch mode\) tensor with optional 0 dim batch size for input, but got:\[2, 0, 5\]/
            : /Expected 3D or 4D \(batch mode\) tensor with optional 0 dim batch size for input, but got:\[2, 0, 1, 5\]/,
        ),
        errorCase(
          f([2, 5]),
          [6],
          kind === 'max' ? { return_indices: true } : {},
          'E_INVALID_ARGUMENT',
          /Given input size: \(2x1x5\). Calculated output size: \(2x1x0\). Output size is too small/,
        ),
      ];
    const words = nd === 2 ? 'two ints' : 'three ints';
    const kWords = kind === 'avg' && nd === 3 ? 'must be a single int' : 'must either be a single int';
    return [
      ...errors,
      errorCase(
        x,
        [new Array(nd + 1).fill(2)],
        {},
        'E_INVALID_ARGUMENT',
        new RegExp(`${fn}: kernel_size ${kWords}, or a tuple of ${words}`),
      ),
      errorCase(
        x,
        [5],
        {},
        'E_INVALID_ARGUMENT',
        kind === 'avg' && nd === 3
          ? /input image \(T: 4 H: 4 W: 4\) smaller than kernel size \(kT: 5 kH: 5 kW: 5\)/
          : /Calculated output size: \(2x0x0.*Output size is too small/,
      ),
      errorCase(x, [2, -1], {}, 'E_INVALID_ARGUMENT', /stride should be greater than zero, but got d/),
      errorCase(
        x,
        [2, new Array(nd + 1).fill(1)],
        {},
        'E_INVALID_ARGUMENT',
        new RegExp(
          `${fn}: stride must ${kind === 'avg' && nd === 3 ? '' : 'either '}be omitted, a single int, or a tuple of ${words}`,
        ),
      ),
      errorCase(x, [2, 1, -1], {}, 'E_INVALID_ARGUMENT', /pad must be non-negative, but got pad: -1/),
      // A zero kernel with stride 1 (a zero stride, defaulting to the kernel, is refused first).
      errorCase(
        x,
        [0, 1],
        {},
        'E_INVALID_ARGUMENT',
        new RegExp(`kernel size should be greater than zero, but got ${nd === 3 ? 'kT: 0 ' : ''}kH: 0 kW: 0`),
      ),
      ...(nd === 3
        ? [
            errorCase(
              f([1, 0, 4, 4, 4]),
              [2],
              {},
              'E_INVALID_ARGUMENT',
              new RegExp(
                `${kind === 'max' ? 'max_pool3d_with_indices_out_cpu_template' : 'avg_pool3d'}\\(\\): Expected input's non-batch dimensions to have positive length, but input has a shape of \\[1, 0, 4, 4, 4\\] and non-batch dimension 0 has length zero!`,
              ),
            ),
          ]
        : []),
      ...(kind === 'avg'
        ? [
            nd === 2
              ? errorCase(
                  f([4, 4]),
                  [2],
                  {},
                  'E_DIM_OUT_OF_RANGE',
                  /Dimension out of range \(expected to be in range of \[-2, 1\], but got -3\)/,
                )
              : // avg_pool3d checks the dim count before the divisor (its geometry's own check comes after).
                errorCase(
                  f([4, 4, 4]),
                  [2],
                  { divisor_override: 0 },
                  'E_INVALID_ARGUMENT',
                  /non-empty 4D or 5D \(batch mode\) tensor expected for input/,
                ),
          ]
        : []),
      ...(kind === 'avg'
        ? [errorCase(x, [2], { divisor_override: 0 }, 'E_INVALID_ARGUMENT', /divisor must be not zero/)]
        : [
            errorCase(
              x,
              [2, 1, 0, 0],
              {},
              'E_INVALID_ARGUMENT',
              /dilation should be greater than zero, but got dilation/,
            ),
          ]),
    ];
  };
}

export function unpoolErrors(nd: number) {
  return (ctx: SampleContext): ErrorInput[] => {
    const f = f32(ctx);
    const shape = [1, 1, ...new Array(nd).fill(2)];
    const ones = new Array(2 ** nd).fill(0);
    const x = f(shape);
    const idx = (v: number[], s = shape) => indexOf(ctx, v, s);
    const out = nd === 1 ? '4x1' : new Array(nd).fill(4).join('x');
    const narrower = [1, 1, ...new Array(nd - 1).fill(2), 1];
    return [
      onValues(
        errorCase(
          x,
          [idx([...ones.slice(1), 99]), 2],
          {},
          'E_INDEX_OUT_OF_RANGE',
          new RegExp(`Found an invalid max index: 99 \\(output volumes are of size ${out}`),
        ),
      ),
      errorCase(
        x,
        [idx(ones.slice(ones.length / 2), narrower), 2],
        {},
        'E_INVALID_ARGUMENT',
        /Expected shape of indices to be same as that of the input tensor/,
      ),
      // 9, then each bound itself: the sizes strictly between default -/+ stride are allowed.
      ...[9, 2, 6].map((size) =>
        errorCase(
          x,
          [idx(ones), 2],
          { output_size: new Array(nd).fill(size) },
          'E_INVALID_ARGUMENT',
          /invalid output_size .* \(dim 0 must be between 2 and 6\)/,
          `output_size ${size}`,
        ),
      ),
      errorCase(
        x,
        [idx(ones), 2],
        { output_size: new Array(nd + 1).fill(4) },
        'E_INVALID_ARGUMENT',
        new RegExp(
          `output_size should be a sequence containing ${nd} or ${nd + 2} elements, but it has a length of '${nd + 1}'`,
        ),
      ),
      errorCase(
        exact(ctx, ones, shape, 'int64'),
        [idx(ones), 2],
        {},
        'E_DTYPE_UNSUPPORTED',
        new RegExp(`"max_unpool${nd === 3 ? 3 : 2}d" not implemented for 'Long'`),
      ),
      // F.max_unpool3d passes its stride on; max_unpool2d takes none (its kernel reads output_size only).
      ...(nd === 3
        ? [
            errorCase(
              x,
              [idx(ones), 2],
              { stride: 0 },
              'E_INVALID_ARGUMENT',
              /strides should be greater than zero, but got stride: \[0, 0, 0\]/,
            ),
          ]
        : []),
    ];
  };
}

/**
 * aten::max_unpool2d(self, indices, output_size) itself: the checks F's wrapper never reaches (its own checks come
 * first), PyTorch 1.13's messages; an index equal to the plane's size is the first one out of range.
 */
export function atenUnpool2dErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const x = f([1, 2, 2, 2]);
  const values = [0, 3, 5, 8, 1, 2, 4, 7];
  const idx = indexOf(ctx, values, [1, 2, 2, 2]);
  return [
    errorCase(
      x,
      [exact(ctx, values, [1, 2, 2, 2], 'int32'), [3, 3]],
      {},
      'E_DTYPE_UNSUPPORTED',
      /elements in indices should be type int64 but got: Int/,
    ),
    errorCase(
      x,
      [idx, [3, 3, 3]],
      {},
      'E_INVALID_ARGUMENT',
      /There should be exactly two elements \(height, width\) in output_size, but got 3 elements\./,
    ),
    errorCase(
      f([2, 2]),
      [indexOf(ctx, [0, 3, 5, 8], [2, 2]), [3, 3]],
      {},
      'E_INVALID_ARGUMENT',
      /Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with 2 dimensions\./,
    ),
    errorCase(
      f([1, 0, 2, 2]),
      [indexOf(ctx, [], [1, 0, 2, 2]), [3, 3]],
      {},
      'E_INVALID_ARGUMENT',
      /max_unpooling2d_forward_out_cpu\(\): Expected input to have non-zero size for non-batch dimensions, but got \[1, 0, 2, 2\] with dimension 1 being empty\./,
    ),
    onValues(
      errorCase(
        x,
        [indexOf(ctx, [0, 3, 5, 9, 1, 2, 4, 7], [1, 2, 2, 2]), [3, 3]],
        {},
        'E_INDEX_OUT_OF_RANGE',
        /Found an invalid max index: 9 \(output volumes are of size 3x3/,
      ),
    ),
    errorCase(
      x,
      [idx, [3, 3]],
      { out: exact(ctx, [0], [1], 'float64') },
      'E_DTYPE_UNSUPPORTED',
      /expected scalar type Float but found Double/,
    ),
  ];
}
