/**
 * Pooling geometry: the argument checks of PyTorch 1.13's pooling kernels in their order and with their
 * messages (the list-length checks, pooling_output_shape, pool2d_shape_check / pool3d_shape_check), and the
 * normalised window parameters every pooling kernel reads. Errors name the aten op that raises them.
 */
import { DimOutOfRangeError, InvalidArgumentError, type Shape, type Tensor } from '../../../core/index.ts';

export type PoolKind = 'max' | 'avg';

/** The normalised parameters of one pooling call over the last `nd` dims of `shape`. */
export interface PoolGeometry {
  readonly nd: number;
  /** The input's leading (batch, channel) sizes. */
  readonly lead: readonly number[];
  readonly input: readonly number[];
  readonly output: readonly number[];
  readonly kernel: readonly number[];
  readonly stride: readonly number[];
  readonly padding: readonly number[];
  readonly dilation: readonly number[];
}

const WORDS = ['', 'a single int', 'two ints', 'three ints'];

const invalid = (op: string, arg: string, message: string, got: unknown, expected: string) =>
  new InvalidArgumentError(message, { op, arg, got, expected });

/** A kernel_size / stride / padding / dilation list spread to `nd` values (a single int broadcasts). */
function spread(op: string, arg: string, v: readonly number[], nd: number, message: string): number[] {
  if (v.length !== 1 && v.length !== nd) throw invalid(op, arg, message, v, `1 or ${nd} ints`);
  return v.length === 1 ? new Array(nd).fill(v[0]) : [...v];
}

/** The list-length checks of the 2-d / 3-d kernels (their wording differs per op, as in aten). */
export function poolLists(
  op: string,
  nd: number,
  kind: PoolKind,
  k: readonly number[],
  s: readonly number[],
  p: readonly number[],
  d: readonly number[] = [1],
): { kernel: number[]; stride: number[]; padding: number[]; dilation: number[] } {
  const n = WORDS[nd];
  const avg3 = kind === 'avg' && nd === 3;
  const either = avg3 ? '' : 'either ';
  const kernel = spread(
    op,
    'kernel_size',
    k,
    nd,
    `${op}: kernel_size must ${either}be a single int, or a tuple of ${n}`,
  );
  if (s.length !== 0 && s.length !== 1 && s.length !== nd)
    throw invalid(
      op,
      'stride',
      `${op}: stride must ${either}be omitted, a single int, or a tuple of ${n}`,
      s,
      'omitted',
    );
  const stride = s.length === 0 ? [...kernel] : spread(op, 'stride', s, nd, '');
  // max_pool2d / max_pool3d say "must be either be" (sic); avg_pool2d "must either be"; avg_pool3d "must be".
  const padWords = kind === 'max' ? 'be either be' : avg3 ? 'be' : 'either be';
  const padding = spread(
    op,
    'padding',
    p,
    nd,
    `${op}: padding must ${padWords} a single int, or a tuple of ${n}`,
  );
  const dilation = spread(
    op,
    'dilation',
    d,
    nd,
    `${op}: dilation must be either a single int, or a tuple of ${n}`,
  );
  return { kernel, stride, padding, dilation };
}

/** pooling_output_shape: the window count along one dim, ceil_mode's last window starting inside input or left pad. */
export function pooledSize(
  op: string,
  size: number,
  k: number,
  pad: number,
  stride: number,
  dilation: number,
  ceil: boolean,
): number {
  if (stride === 0) throw invalid(op, 'stride', 'stride should not be zero', 0, 'a nonzero stride');
  if (pad < 0) throw invalid(op, 'padding', `pad must be non-negative, but got pad: ${pad}`, pad, '>= 0');
  if (pad > Math.trunc(k / 2))
    throw invalid(
      op,
      'padding',
      `pad should be at most half of kernel size, but got pad=${pad} and kernel_size=${k}`,
      pad,
      `at most ${Math.trunc(k / 2)}`,
    );
  let out = Math.floor((size + 2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0)) / stride) + 1;
  if (ceil && (out - 1) * stride >= size + pad) out--;
  return out;
}

const dimOutOfRange = (op: string, ndim: number, dim: number) => {
  const n = Math.max(ndim, 1);
  return new DimOutOfRangeError(
    `Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${dim})`,
    { op, arg: 'self', got: dim, expected: `in [${-n}, ${n - 1}]` },
  );
};

const fmt = (s: Shape) => `[${s.join(', ')}]`;

/**
 * The full checks of the 2-d / 3-d pooling kernels (max_pool2d_with_indices, max_pool3d_with_indices,
 * avg_pool2d, avg_pool3d), in aten's order; `channelsLast` is the input's suggested memory format.
 */
export function poolGeometry(
  op: string,
  kind: PoolKind,
  shape: Shape,
  lists: ReturnType<typeof poolLists>,
  ceil: boolean,
  channelsLast = false,
): PoolGeometry {
  const nd = lists.kernel.length;
  const ndim = shape.length;
  const { kernel: k, stride: s, padding: p, dilation: d } = lists;
  // avg_pool2d reads size(-3) before any dim check; the others check the dim count first.
  if (kind === 'max' || nd === 3) {
    const ok = ndim === nd + 1 || ndim === nd + 2;
    if (!ok) {
      const what = nd === 2 ? '3D or 4D' : '4D or 5D';
      throw invalid(op, 'self', `non-empty ${what} (batch mode) tensor expected for input`, ndim, what);
    }
  } else if (ndim < 3) throw dimOutOfRange(op, ndim, -3);
  const input = shape.slice(ndim - nd);
  const output = input.map((n, i) => pooledSize(op, n, k[i], p[i], s[i], d[i], ceil));
  const names = nd === 2 ? ['H', 'W'] : ['T', 'H', 'W'];
  const list = (prefix: string, v: readonly number[]) =>
    v.map((x, i) => `${prefix}${names[i]}: ${x}`).join(' ');
  if (k.some((x) => x <= 0))
    throw invalid(
      op,
      'kernel_size',
      `kernel size should be greater than zero, but got ${list('k', k)}`,
      k,
      '> 0',
    );
  if (s.some((x) => x <= 0))
    throw invalid(op, 'stride', `stride should be greater than zero, but got ${list('d', s)}`, s, '> 0');
  if (d.some((x) => x <= 0))
    throw invalid(
      op,
      'dilation',
      `dilation should be greater than zero, but got ${list('dilation', d)}`,
      d,
      '> 0',
    );
  const planes = shape[ndim - nd - 1];
  if (nd === 2) {
    const valid = shape[1] !== 0 && shape[2] !== 0 && (ndim === 3 ? shape[0] !== 0 : shape[3] !== 0);
    if (!valid || ndim > 4)
      throw invalid(
        op,
        'self',
        channelsLast
          ? `Expected 4D (batch mode) tensor expected for input with channels_last layout with optional 0 dim batch size for input, but got: ${fmt(shape)}`
          : `Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:${fmt(shape)}`,
        shape,
        'non-empty non-batch dims',
      );
  } else {
    const fn = kind === 'max' ? 'max_pool3d_with_indices_out_cpu_template()' : 'avg_pool3d()';
    for (let i = ndim === 5 ? 1 : 0; i < ndim; i++)
      if (shape[i] === 0)
        throw invalid(
          op,
          'self',
          `${fn}: Expected input's non-batch dimensions to have positive length, but input has a shape of ${fmt(shape)} and non-batch dimension ${shape[i]} has length zero!`,
          shape,
          'non-empty non-batch dims',
        );
    if (kind === 'avg' && input.some((n, i) => n < k[i]))
      throw invalid(
        op,
        'self',
        `input image (T: ${input[0]} H: ${input[1]} W: ${input[2]}) smaller than kernel size (kT: ${k[0]} kH: ${k[1]} kW: ${k[2]})`,
        input,
        'at least the kernel size',
      );
  }
  if (output.some((n) => n < 1)) {
    const sizes = (v: readonly number[]) => [planes, ...v].join('x');
    throw invalid(
      op,
      'self',
      `Given input size: (${sizes(input)}). Calculated output size: (${sizes(output)}). Output size is too small`,
      output,
      'at least one window per dim',
    );
  }
  return {
    nd,
    lead: shape.slice(0, ndim - nd),
    input,
    output,
    kernel: k,
    stride: s,
    padding: p,
    dilation: d,
  };
}

/** check1d of the 1-d wrappers: "max_pool1d() argument 'stride' should contain one int (got 2)". */
export function check1d(op: string, arg: string, v: readonly number[]): void {
  if (v.length !== 1)
    throw invalid(
      op,
      arg,
      `${op}() argument '${arg}' should contain one int (got ${v.length})`,
      v,
      'one int',
    );
}

/** checkDimRange(2, 4) of the 1-d wrappers. */
export function check1dInput(op: string, ndim: number): void {
  if (ndim < 2 || ndim > 3)
    throw invalid(
      op,
      'self',
      `Expected 2 to 3 dimensions, but got ${ndim}-dimensional tensor for argument #1 'self' (while checking arguments for ${op})`,
      ndim,
      '2 or 3 dims',
    );
}

/** Strides of a tensor with nd spatial dims, as (N, C, T, H, W). */
export function frameStrides(x: Tensor, nd: number): number[] {
  const lead = x.ndim - nd;
  const st = x.strides;
  const n = lead === 2 ? st[0] : 0;
  const c = st[lead - 1];
  const spatial = st.slice(lead);
  return [n, c, ...new Array(3 - nd).fill(0), ...spatial];
}
