/**
 * torch.nn.functional.interpolate and its deprecated wrappers upsample_nearest / upsample_bilinear: Python-only
 * functions (no aten schema) that check their arguments in torch/nn/functional.py's order and with its messages,
 * then call the aten upsample op for the mode and rank (`.vec`: output sizes or scale factors; the `_aa` ones with
 * antialias=True), or adaptive_avg_pool{1,2,3}d for mode='area'.
 */
import { InvalidArgumentError, NotImplementedError, type Tensor } from '../../../core/index.ts';
import { type BoundArgs, callOp, operatorTable } from '../../../dispatch/index.ts';
import { defineOp } from '../../structured.ts';

type Size = number | readonly number[] | null;

const RANKED: Readonly<Record<string, readonly (string | null)[]>> = {
  nearest: ['upsample_nearest1d', 'upsample_nearest2d', 'upsample_nearest3d'],
  'nearest-exact': ['_upsample_nearest_exact1d', '_upsample_nearest_exact2d', '_upsample_nearest_exact3d'],
  linear: ['upsample_linear1d', null, null],
  bilinear: [null, 'upsample_bilinear2d', null],
  trilinear: [null, null, 'upsample_trilinear3d'],
  bicubic: [null, 'upsample_bicubic2d', null],
};

/** The rank a mode needs, for "Got 3D input, but bilinear mode needs 4D input". */
const NEEDS: Readonly<Record<string, number>> = { linear: 3, bilinear: 4, trilinear: 5 };

const OP = 'interpolate';
const valueError = (message: string, arg: string, got: unknown, expected: string) =>
  new InvalidArgumentError(message, { op: OP, arg, got, expected });

const pyList = (v: readonly number[]) => `[${v.join(', ')}]`;

/** Python's repr of a float list element (2.0, not 2). */
const pyFloat = (x: number) => (Number.isInteger(x) ? x.toFixed(1) : String(x));

export function interpolate(a: BoundArgs): Tensor {
  const input = a.input as Tensor;
  const size = (a.size as Size) ?? null;
  const scale = (a.scale_factor as Size) ?? null;
  const mode = a.mode as string;
  let align = (a.align_corners as boolean | null) ?? null;
  let recompute = (a.recompute_scale_factor as boolean | null) ?? null;
  if (mode === 'nearest' || mode === 'area' || mode === 'nearest-exact') {
    if (align !== null)
      throw valueError(
        'align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear',
        'align_corners',
        align,
        'None',
      );
  } else if (align === null) align = false;
  const dim = input.ndim - 2;
  const spatial = pyList(input.shape.slice(2));
  let outputSize: number[] | null = null;
  let factors: number[] | null = null;
  if (size !== null && scale !== null)
    throw valueError('only one of size or scale_factor should be defined', 'scale_factor', scale, 'None');
  if (size !== null) {
    if (Array.isArray(size)) {
      if (size.length !== dim)
        throw valueError(
          `Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of ${spatial} and output size of ${pyList(size)}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.`,
          'size',
          size.length,
          `${dim} sizes`,
        );
      outputSize = [...size];
    } else outputSize = new Array<number>(Math.max(dim, 0)).fill(size as number);
  } else if (scale !== null) {
    if (Array.isArray(scale)) {
      if (scale.length !== dim)
        throw valueError(
          `Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions of ${spatial} and scale_factor of shape [${scale.map(pyFloat).join(', ')}]. Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.`,
          'scale_factor',
          scale.length,
          `${dim} factors`,
        );
      factors = [...scale];
    } else factors = new Array<number>(Math.max(dim, 0)).fill(scale as number);
  } else
    throw valueError(
      'either size or scale_factor should be defined',
      'size',
      null,
      'a size or a scale_factor',
    );
  if (recompute && size !== null)
    throw valueError(
      'recompute_scale_factor is not meaningful with an explicit size.',
      'recompute_scale_factor',
      true,
      'None or False',
    );
  // "area" always works from an output size: the recompute path computes it.
  if (mode === 'area' && outputSize === null) recompute = true;
  if (recompute && factors) {
    outputSize = factors.map((f, i) => Math.floor(input.shape[i + 2] * f));
    factors = null;
  }
  if (a.antialias && !((mode === 'bilinear' || mode === 'bicubic') && input.ndim === 4))
    throw valueError(
      'Anti-alias option is only supported for bilinear and bicubic modes',
      'antialias',
      true,
      'False',
    );
  if (dim >= 1 && dim <= 3) {
    if (mode === 'area') return callOp(`adaptive_avg_pool${dim}d`, [input, outputSize]) as Tensor;
    const name = a.antialias ? `_upsample_${mode}2d_aa` : RANKED[mode]?.[dim - 1];
    if (name) {
      const aligned = mode !== 'nearest' && mode !== 'nearest-exact';
      return callOp(`${name}.vec`, [input, outputSize, ...(aligned ? [align] : []), factors]) as Tensor;
    }
    const need = NEEDS[mode];
    if (need !== undefined)
      throw new NotImplementedError(`Got ${input.ndim}D input, but ${mode} mode needs ${need}D input`, {
        op: OP,
        arg: 'input',
        got: input.ndim,
        expected: need,
      });
  }
  throw new NotImplementedError(
    `Input Error: Only 3D, 4D and 5D input Tensors supported (got ${input.ndim}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got ${mode})`,
    { op: OP, arg: 'mode', got: mode, expected: 'a mode for the input rank' },
  );
}

const SIZE_ARGS = 'Tensor input, Any? size=None, Any? scale_factor=None';

export function registerInterpolate(): void {
  const tags = { family: 'nn', decomposed: true, pythonOnly: true };
  defineOp({
    schema: `interpolate(${SIZE_ARGS}, str mode="nearest", bool? align_corners=None, bool? recompute_scale_factor=None, bool antialias=False) -> Tensor`,
    tags,
    composite: interpolate,
  });
  defineOp({
    schema: `upsample_nearest(${SIZE_ARGS}) -> Tensor`,
    tags,
    composite: (a) =>
      interpolate({
        ...a,
        mode: 'nearest',
        align_corners: null,
        recompute_scale_factor: null,
        antialias: false,
      }),
  });
  defineOp({
    schema: `upsample_bilinear(${SIZE_ARGS}) -> Tensor`,
    tags,
    composite: (a) =>
      interpolate({
        ...a,
        mode: 'bilinear',
        align_corners: true,
        recompute_scale_factor: null,
        antialias: false,
      }),
  });
  for (const n of ['interpolate', 'upsample_nearest', 'upsample_bilinear'])
    operatorTable.alias(`nn.functional.${n}`, n);
}
