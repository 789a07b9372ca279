/**
 * Grid sampling: aten's grid_sampler (which picks grid_sampler_2d or grid_sampler_3d by rank), with their out=
 * forms, and F.grid_sample's Python signature (mode and padding_mode by name). Written in differentiable runtime
 * ops (autograd records the decomposition, as PyTorch's own decomposition of grid_sampler_2d does): the grid is
 * unnormalised and padded per dim (border clips, reflection folds then clips), the corners are read with a gather
 * through the flattened spatial dims and masked where they fall outside (zeros padding), and weighted. The
 * gradients in input and grid are those of the same expressions, which is what PyTorch's backward computes.
 */
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, callOp, operatorTable } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';

export const GRID_SAMPLE_API = {
  grid_sampler: 'function',
  grid_sampler_2d: 'function',
  grid_sampler_3d: 'function',
} as const satisfies ApiDecl;

const OP = 'grid_sampler';
const BILINEAR = 0;
const NEAREST = 1;
const BICUBIC = 2;
const BORDER = 1;
const REFLECTION = 2;

interface Sampling {
  readonly interp: number;
  readonly padding: number;
  readonly align: boolean;
}

const sizes = (x: Tensor) => `[${x.shape.join(', ')}]`;

/** check_grid_sampler_common and the rank checks, in aten's order. */
function checkGrid(input: Tensor, grid: Tensor, rank: 4 | 5, s: Sampling): void {
  const fail = (message: string, arg = 'grid') =>
    new ShapeMismatchError(message, { op: OP, arg, got: [...grid.shape], expected: [...input.shape] });
  if (input.ndim !== grid.ndim)
    throw fail(
      `grid_sampler(): expected grid to have same number of dimensions as input, but got input with sizes ${sizes(input)} and grid with sizes ${sizes(grid)}`,
    );
  if (input.shape[0] !== grid.shape[0])
    throw fail(
      `grid_sampler(): expected grid and input to have same batch size, but got input with sizes ${sizes(input)} and grid with sizes ${sizes(grid)}`,
    );
  if (grid.shape[grid.ndim - 1] !== input.ndim - 2)
    throw fail(
      `grid_sampler(): expected grid to have size ${input.ndim - 2} in last dimension, but got grid with sizes ${sizes(grid)}`,
    );
  for (let i = 2; i < input.ndim; i++)
    if (input.shape[i] <= 0)
      throw fail(
        `grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes ${sizes(input)} with dimension ${i} being empty`,
        'input',
      );
  if (input.ndim !== rank)
    throw fail(
      `grid_sampler(): expected ${rank}D input and grid with same number of dimensions, but got input with sizes ${sizes(input)} and grid with sizes ${sizes(grid)}`,
    );
  if (rank === 5 && s.interp === BICUBIC)
    throw new InvalidArgumentError('grid_sampler(): bicubic interpolation only supports 4D input', {
      op: OP,
      arg: 'interpolation_mode',
      got: s.interp,
      expected: 'bilinear or nearest',
    });
  const kernel = `grid_sampler_${rank - 2}d_cpu`;
  if (input.dtype !== 'float32' && input.dtype !== 'float64')
    throw new DTypeUnsupportedError(`${kernel} not implemented for ${DTYPE_INFO[input.dtype].torchName}`, {
      op: OP,
      arg: 'input',
      got: input.dtype,
      expected: 'float32 or float64',
    });
  if (grid.dtype !== input.dtype)
    throw new DTypeUnsupportedError(
      `expected scalar type ${DTYPE_INFO[input.dtype].torchName} but found ${DTYPE_INFO[grid.dtype].torchName}`,
      { op: OP, arg: 'grid', got: grid.dtype, expected: input.dtype },
    );
}

/** grid_sampler_unnormalize: [-1, 1] to [0, size - 1] (align_corners) or [-0.5, size - 0.5]. */
function unnormalize(c: Tensor, size: number, align: boolean): Tensor {
  const shifted = t('add', [c, 1]);
  return align
    ? t('mul', [t('div', [shifted, 2]), size - 1])
    : t('div', [t('sub', [t('mul', [shifted, size]), 1]), 2]);
}

const clip = (x: Tensor, size: number) => t('clamp', [x], { min: 0, max: size - 1 });

/** reflect_coordinates: folds x into [twiceLow / 2, twiceHigh / 2]. */
function reflect(x: Tensor, twiceLow: number, twiceHigh: number): Tensor {
  if (twiceLow === twiceHigh) return t('zeros_like', [x]);
  const min = twiceLow / 2;
  const span = (twiceHigh - twiceLow) / 2;
  const a = t('abs', [t('sub', [x, min])]);
  const extra = t('fmod', [a, span]);
  const odd = t('eq', [t('remainder', [t('floor', [t('div', [a, span])]), 2]), 1]);
  return t('where', [odd, t('add', [t('neg', [extra]), span + min]), t('add', [extra, min])]);
}

/** compute_coordinates: the padding mode applied to an unnormalised coordinate. */
function pad(x: Tensor, size: number, s: Sampling): Tensor {
  if (s.padding === BORDER) return clip(x, size);
  if (s.padding === REFLECTION)
    return clip(s.align ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1), size);
  return x;
}

/**
 * Reads input[n, :, idx...] for integer-valued coordinates per spatial dim ([N, *O] each) as [N, C, *O], 0 outside
 * (into `out` when given).
 */
function readAt(flat: Tensor, spatial: readonly number[], idx: readonly Tensor[], out?: Tensor): Tensor {
  let linear: Tensor | null = null;
  let inside: Tensor | null = null;
  let stride = 1;
  for (let j = spatial.length - 1; j >= 0; j--) {
    const ok = t('logical_and', [t('ge', [idx[j], 0]), t('le', [idx[j], spatial[j] - 1])]);
    // int32 arithmetic (webgpu computes no int64), widened for gather at the end.
    const at = t('mul', [t('to', [clip(idx[j], spatial[j]), 'int32']), stride]);
    linear = linear ? t('add', [linear, at]) : at;
    inside = inside ? t('logical_and', [inside, ok]) : ok;
    stride *= spatial[j];
  }
  const [n, c] = flat.shape;
  const points = t('reshape', [t('to', [linear!, 'int64']), [n, 1, -1]]);
  const index = t('expand', [points, [n, c, points.shape[2]]]);
  const values = t('reshape', [t('gather', [flat, 2, index]), [n, c, ...linear!.shape.slice(1)]]);
  return t('where', [t('unsqueeze', [inside!, 1]), values, 0], out ? { out } : {});
}

/** aten's cubic convolution coefficients (A = -0.75) at fraction tt. */
function cubicWeights(tt: Tensor): Tensor[] {
  const A = -0.75;
  const c1 = (x: Tensor) =>
    t('add', [t('mul', [t('mul', [t('sub', [t('mul', [x, A + 2]), A + 3]), x]), x]), 1]);
  const c2 = (x: Tensor) =>
    t('sub', [t('mul', [t('add', [t('mul', [t('sub', [t('mul', [x, A]), 5 * A]), x]), 8 * A]), x]), 4 * A]);
  const rest = t('neg', [t('sub', [tt, 1])]);
  return [c2(t('add', [tt, 1])), c1(tt), c1(rest), c2(t('add', [rest, 1]))];
}

/** acc + v * w (w broadcast over channels), into `out` when given. */
const weighted = (acc: Tensor | null, w: Tensor, v: Tensor, out?: Tensor) => {
  const term = t('mul', [v, t('unsqueeze', [w, 1])]);
  return acc ? t('add', [acc, term], out ? { out } : {}) : term;
};

/** Every combination of one choice per dim, the last (x) dim varying fastest: nw, ne, sw, se, ... */
function corners<T>(perDim: readonly (readonly T[])[]): T[][] {
  return perDim.reduce<T[][]>((acc, opts) => acc.flatMap((pre) => opts.map((o) => [...pre, o])), [[]]);
}

function gridSample(input: Tensor, grid: Tensor, s: Sampling, rank: 4 | 5, into?: Tensor): Tensor {
  checkGrid(input, grid, rank, s);
  const k = rank - 2;
  const [n, c] = input.shape;
  const spatial = input.shape.slice(2);
  const flat = t('reshape', [input, [n, c, -1]]);
  // Spatial dim j of the input is the grid's component k - 1 - j (the grid holds x, y[, z]).
  const coord = (j: number) => t('select', [grid, -1, k - 1 - j]);
  let out: Tensor | null = null;
  if (s.interp === BICUBIC) {
    const raw = spatial.map((size, j) => unnormalize(coord(j), size, s.align));
    const base = raw.map((x) => t('floor', [x]));
    const weights = raw.map((x, j) => cubicWeights(t('sub', [x, base[j]])));
    // Rows (y) outside, columns (x) inside: cubic_interp1d over each row, then over the rows.
    for (let a = 0; a < 4; a++) {
      let row: Tensor | null = null;
      for (let b = 0; b < 4; b++) {
        const idx = [a, b].map((o, j) => t('trunc', [pad(t('add', [base[j], o - 1]), spatial[j], s)]));
        row = weighted(row, weights[1][b], readAt(flat, spatial, idx));
      }
      const term = t('mul', [row!, t('unsqueeze', [weights[0][a], 1])]);
      out = out ? t('add', [out, term], a === 3 && into ? { out: into } : {}) : term;
    }
  } else {
    const src = spatial.map((size, j) => pad(unnormalize(coord(j), size, s.align), size, s));
    if (s.interp === NEAREST)
      out = readAt(
        flat,
        spatial,
        src.map((x) => t('round', [x])),
        into,
      );
    else {
      const lo = src.map((x) => t('floor', [x]));
      // (lo + 1 - x, x - lo) per dim, as aten writes nw = (ix_se - ix) * (iy_se - iy).
      const taps = src.map((x, j) => [
        { at: lo[j], w: t('sub', [t('add', [lo[j], 1]), x]) },
        { at: t('add', [lo[j], 1]), w: t('sub', [x, lo[j]]) },
      ]);
      const all = corners(taps);
      all.forEach((corner, i) => {
        const w = corner.reduceRight<Tensor | null>(
          (acc, tap) => (acc ? t('mul', [acc, tap.w]) : tap.w),
          null,
        );
        out = weighted(
          out,
          w!,
          readAt(
            flat,
            spatial,
            corner.map((tap) => tap.at),
          ),
          i === all.length - 1 ? into : undefined,
        );
      });
    }
  }
  return out!;
}

const samplingOf = (a: BoundArgs): Sampling => ({
  interp: a.interpolation_mode as number,
  padding: a.padding_mode as number,
  align: a.align_corners as boolean,
});

const MODES = { bilinear: BILINEAR, nearest: NEAREST, bicubic: BICUBIC } as Record<string, number>;
const PADDINGS = { zeros: 0, border: BORDER, reflection: REFLECTION } as Record<string, number>;

/** F.grid_sample: the mode names checked (ValueError) and turned into aten's enums; align_corners=None is False. */
function functionalGridSample(a: BoundArgs): Tensor {
  const mode = a.mode as string;
  const padding = a.padding_mode as string;
  const invalid = (message: string, arg: string, got: string) =>
    new InvalidArgumentError(message, { op: 'grid_sample', arg, got, expected: 'a mode name' });
  if (!(mode in MODES))
    throw invalid(
      `nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '${mode}'`,
      'mode',
      mode,
    );
  if (!(padding in PADDINGS))
    throw invalid(
      `nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: '${padding}'`,
      'padding_mode',
      padding,
    );
  const align = (a.align_corners as boolean | null) ?? false;
  return callOp('grid_sampler', [a.input, a.grid, MODES[mode], PADDINGS[padding], align]) as Tensor;
}

const ARGS = 'Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners';

export function registerGridSample(): void {
  const tags = { family: 'nn', decomposed: true };
  for (const rank of [4, 5] as const) {
    const name = `grid_sampler_${rank - 2}d`;
    defineOp({
      schema: `${name}(${ARGS}) -> Tensor`,
      tags,
      composite: (a) => gridSample(a.input as Tensor, a.grid as Tensor, samplingOf(a), rank),
    });
    defineOp({
      schema: `${name}.out(${ARGS}, *, Tensor(a!) out) -> Tensor(a!)`,
      tags,
      composite: (a) => gridSample(a.input as Tensor, a.grid as Tensor, samplingOf(a), rank, a.out as Tensor),
    });
  }
  defineOp({
    schema: `grid_sampler(${ARGS}) -> Tensor`,
    tags,
    composite: (a) => {
      const input = a.input as Tensor;
      if (input.ndim === 4)
        return callOp('grid_sampler_2d', [
          input,
          a.grid,
          a.interpolation_mode,
          a.padding_mode,
          a.align_corners,
        ]);
      return callOp('grid_sampler_3d', [
        input,
        a.grid,
        a.interpolation_mode,
        a.padding_mode,
        a.align_corners,
      ]);
    },
  });
  defineOp({
    schema:
      'grid_sample(Tensor input, Tensor grid, str mode="bilinear", str padding_mode="zeros", bool? align_corners=None) -> Tensor',
    tags: { ...tags, pythonOnly: true },
    composite: functionalGridSample,
  });
  operatorTable.alias('nn.functional.grid_sample', 'grid_sample');
  operatorTable.declare(GRID_SAMPLE_API);
}
