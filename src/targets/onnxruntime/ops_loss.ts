/** onnxruntime rows: losses and resampling. */
import type { DType } from '../../runtime/index.ts';
import { defaults, num } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import { cast, isFloat, type Row, t } from './build.ts';
import { ints, node, shapeOf } from './graph.ts';

export const LOSS: Readonly<Record<string, Row>> = {
  'nn.functional.nll_loss': {
    as: 'NegativeLogLikelihoodLoss',
    call: (_rt, a) => {
      defaults(a, { size_average: null, reduce: null });
      const w = a.weight === null || a.weight === undefined ? [] : [t(a.weight)];
      const attrs = { reduction: String(a.reduction), ignore_index: num(a.ignore_index, 'ignore_index') };
      return node('NegativeLogLikelihoodLoss', [t(a.input), t(a.target), ...w], attrs, {
        dtype: t(a.input).dtype,
      });
    },
  },
  'nn.functional.cross_entropy': {
    as: 'SoftmaxCrossEntropyLoss',
    call: (_rt, a) => {
      defaults(a, { size_average: null, reduce: null, label_smoothing: 0 });
      const target = t(a.target);
      if (isFloat(target.dtype as DType)) throw new NotExpressible('class-probability targets');
      const w = a.weight === null || a.weight === undefined ? [] : [t(a.weight)];
      const attrs = { reduction: String(a.reduction), ignore_index: num(a.ignore_index, 'ignore_index') };
      return node('SoftmaxCrossEntropyLoss', [t(a.input), target, ...w], attrs, { dtype: t(a.input).dtype });
    },
  },
  'nn.functional.grid_sample': {
    as: 'GridSample (opset 20)',
    call: (_rt, a) => {
      const mode = { bilinear: 'linear', nearest: 'nearest', bicubic: 'cubic' }[a.mode as string];
      if (!mode) throw new NotExpressible(`grid_sample mode ${String(a.mode)}`);
      const attrs = {
        mode,
        padding_mode: String(a.padding_mode),
        align_corners: a.align_corners === true ? 1 : 0,
      };
      return node('GridSample', [t(a.input), cast(t(a.grid), t(a.input).dtype as DType)], attrs, {});
    },
  },
  upsample_nearest2d: {
    as: "Resize(mode='nearest', 'asymmetric', 'floor')",
    call: (_rt, a, overload) => {
      if (overload !== '' || a.scales_h != null || a.scales_w != null)
        throw new NotExpressible('scales (only output_size)');
      const x = t(a.self);
      const sizes = ints([...shapeOf(x).slice(0, 2), ...(a.output_size as number[])]);
      const attrs = { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' };
      return node('Resize', [x, null, null, sizes], attrs, { dtype: x.dtype });
    },
  },
  upsample_bilinear2d: {
    as: "Resize(mode='linear', 'align_corners' | 'pytorch_half_pixel')",
    call: (_rt, a, overload) => {
      if (overload !== '' || a.scales_h != null || a.scales_w != null)
        throw new NotExpressible('scales (only output_size)');
      const x = t(a.self);
      const sizes = ints([...shapeOf(x).slice(0, 2), ...(a.output_size as number[])]);
      const ct = a.align_corners === true ? 'align_corners' : 'pytorch_half_pixel';
      return node(
        'Resize',
        [x, null, null, sizes],
        { mode: 'linear', coordinate_transformation_mode: ct },
        {},
      );
    },
  },
};
