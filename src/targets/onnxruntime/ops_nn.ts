/** onnxruntime rows: convolution, pooling, normalisation, linear, losses, resampling. */
import type { DType } from '../../runtime/index.ts';
import { defaults, num } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import { type Args, isFloat, operand, type Row, t, unmapped } from './build.ts';
import { ints, konst, node, nodeN, type OrtT, rankOf, shapeOf } from './graph.ts';

const ilist = (v: unknown): number[] => (Array.isArray(v) ? (v as number[]) : [num(v as number, 'size')]);
const rep = (v: unknown, n: number) => {
  const l = ilist(v);
  return l.length === 1 ? Array(n).fill(l[0]) : l;
};

/** An unbatched input (no N dim) gets one for ONNX, which takes N x C x spatial; `run` builds on the batched. */
function batched(x: OrtT, spatial: number, run: (x: OrtT) => OrtT | OrtT[]): OrtT | OrtT[] {
  if (!isFloat(x.dtype as DType))
    throw new NotExpressible(`a ${x.dtype} input (ONNX takes float tensors here)`);
  if (rankOf(x) === spatial + 2) return run(x);
  const outs = run(node('Unsqueeze', [x, ints([0])], {}, { dtype: x.dtype, rank: spatial + 2 }));
  const sq = (o: OrtT) => node('Squeeze', [o, ints([0])], {}, { dtype: o.dtype });
  return Array.isArray(outs) ? outs.map(sq) : sq(outs);
}

const conv = (n: number): Row => ({
  as: 'Conv',
  call: (_rt, a) =>
    batched(t(a.input), n, (x) => {
      const attrs: Record<string, number[] | number | string> = {
        strides: rep(a.stride, n),
        dilations: rep(a.dilation, n),
        group: num(a.groups, 'groups'),
      };
      if (a.padding === 'same') {
        // PyTorch's 'same': dilation*(kernel-1) of padding, the odd one at the end (explicit: ORT's auto_pad
        // SAME_UPPER refuses a dilation).
        const total = shapeOf(t(a.weight))
          .slice(2)
          .map((k, i) => (attrs.dilations as number[])[i] * (k - 1));
        attrs.pads = [...total.map((p) => Math.floor(p / 2)), ...total.map((p) => p - Math.floor(p / 2))];
      } else if (a.padding === 'valid') attrs.pads = Array(2 * n).fill(0);
      else attrs.pads = [...rep(a.padding, n), ...rep(a.padding, n)];
      const b = a.bias === null || a.bias === undefined ? [] : [t(a.bias)];
      return node('Conv', [x, t(a.weight), ...b], attrs, { dtype: x.dtype });
    }),
});

const convTranspose = (n: number): Row => ({
  as: 'ConvTranspose',
  call: (_rt, a) =>
    batched(t(a.input), n, (x) => {
      const attrs = {
        strides: rep(a.stride, n),
        dilations: rep(a.dilation, n),
        group: num(a.groups, 'groups'),
        pads: [...rep(a.padding, n), ...rep(a.padding, n)],
        output_padding: rep(a.output_padding, n),
      };
      const b = a.bias === null || a.bias === undefined ? [] : [t(a.bias)];
      return node('ConvTranspose', [x, t(a.weight), ...b], attrs, { dtype: x.dtype });
    }),
});

/** MaxPool; its Indices count over N x C x spatial, PyTorch's per plane: Mod by the plane's size makes them PyTorch's. */
const maxPool = (n: number, indices: (a: Args) => boolean): Row => ({
  as: 'MaxPool (Mod of its Indices)',
  call: (_rt, a) => {
    const x0 = t(a.input ?? a.self);
    return batched(x0, n, (x) => {
      const k = rep(a.kernel_size, n);
      const s =
        a.stride === null || (Array.isArray(a.stride) && a.stride.length === 0) ? k : rep(a.stride, n);
      const attrs = {
        kernel_shape: k,
        strides: s,
        pads: [...rep(a.padding, n), ...rep(a.padding, n)],
        dilations: rep(a.dilation ?? 1, n),
        ceil_mode: a.ceil_mode === true ? 1 : 0,
      };
      if (!indices(a)) return node('MaxPool', [x], attrs, { dtype: x.dtype });
      const [v, i] = nodeN('MaxPool', [x], attrs, [{ dtype: x.dtype }, { dtype: 'int64' }]);
      const plane = shapeOf(x0)
        .slice(-n)
        .reduce((p, q) => p * q, 1);
      return [v, node('Mod', [i, konst([plane], 'int64', [])], { fmod: 0 }, { dtype: 'int64' })];
    });
  },
});

const avgPool = (n: number): Row => ({
  as: 'AveragePool',
  call: (_rt, a) => {
    defaults(a, { divisor_override: null });
    return batched(t(a.self), n, (x) => {
      const k = rep(a.kernel_size, n);
      const s =
        a.stride === null || (Array.isArray(a.stride) && a.stride.length === 0) ? k : rep(a.stride, n);
      const attrs = {
        kernel_shape: k,
        strides: s,
        pads: [...rep(a.padding, n), ...rep(a.padding, n)],
        ceil_mode: a.ceil_mode === true ? 1 : 0,
        count_include_pad: a.count_include_pad === false ? 0 : 1,
      };
      return node('AveragePool', [x], attrs, { dtype: x.dtype });
    });
  },
});

/** Adaptive pooling to an output of all ones: GlobalAveragePool / GlobalMaxPool. */
const adaptive = (op: string, n: number): Row => ({
  as: op,
  call: (_rt, a) => {
    if (a.return_indices === true) throw new NotExpressible('return_indices (GlobalMaxPool has no indices)');
    if (!rep(a.output_size, n).every((v) => v === 1))
      throw new NotExpressible(
        'an adaptive pool to an output other than all ones (ONNX has global pools only)',
      );
    return batched(t(a.input ?? a.self), n, (x) => node(op, [x], {}, { dtype: x.dtype }));
  },
});

const filledLike = (c: number, v: number, d: DType) => konst(Array(c).fill(v), d);

export const NN: Readonly<Record<string, Row>> = {
  'nn.functional.conv1d': conv(1),
  'nn.functional.conv2d': conv(2),
  'nn.functional.conv3d': conv(3),
  'nn.functional.conv_transpose1d': convTranspose(1),
  'nn.functional.conv_transpose2d': convTranspose(2),
  'nn.functional.conv_transpose3d': convTranspose(3),
  'nn.functional.max_pool1d': maxPool(1, (a) => a.return_indices === true),
  'nn.functional.max_pool2d': maxPool(2, (a) => a.return_indices === true),
  'nn.functional.max_pool3d': maxPool(3, (a) => a.return_indices === true),
  max_pool2d_with_indices: maxPool(2, () => true),
  max_pool3d_with_indices: maxPool(3, () => true),
  'nn.functional.avg_pool1d': avgPool(1),
  'nn.functional.avg_pool2d': avgPool(2),
  'nn.functional.avg_pool3d': avgPool(3),
  'nn.functional.adaptive_avg_pool1d': adaptive('GlobalAveragePool', 1),
  'nn.functional.adaptive_avg_pool2d': adaptive('GlobalAveragePool', 2),
  'nn.functional.adaptive_avg_pool3d': adaptive('GlobalAveragePool', 3),
  adaptive_avg_pool2d: adaptive('GlobalAveragePool', 2),
  'nn.functional.adaptive_max_pool1d': adaptive('GlobalMaxPool', 1),
  'nn.functional.adaptive_max_pool2d': adaptive('GlobalMaxPool', 2),
  'nn.functional.adaptive_max_pool3d': adaptive('GlobalMaxPool', 3),
  adaptive_max_pool2d: unmapped('two outputs (values, indices): ONNX GlobalMaxPool has no indices'),
  'nn.functional.batch_norm': {
    as: 'BatchNormalization (inference)',
    call: (_rt, a) => {
      if (a.training === true)
        throw new NotExpressible('training=True (batch statistics and running-stat updates)');
      const x = t(a.input);
      const c = shapeOf(x)[1] ?? 1;
      const d = x.dtype as DType;
      const w = a.weight === null || a.weight === undefined ? filledLike(c, 1, d) : t(a.weight);
      const b = a.bias === null || a.bias === undefined ? filledLike(c, 0, d) : t(a.bias);
      const attrs = { epsilon: { float: num(a.eps, 'eps') } };
      return node('BatchNormalization', [x, w, b, t(a.running_mean), t(a.running_var)], attrs, { dtype: d });
    },
  },
  'nn.functional.instance_norm': {
    as: 'InstanceNormalization',
    call: (_rt, a) => {
      if (a.use_input_stats === false) throw new NotExpressible('use_input_stats=False (running statistics)');
      const x = t(a.input);
      const c = shapeOf(x)[1] ?? 1;
      const d = x.dtype as DType;
      const w = a.weight === null || a.weight === undefined ? filledLike(c, 1, d) : t(a.weight);
      const b = a.bias === null || a.bias === undefined ? filledLike(c, 0, d) : t(a.bias);
      return node(
        'InstanceNormalization',
        [x, w, b],
        { epsilon: { float: num(a.eps, 'eps') } },
        { dtype: d },
      );
    },
  },
  'nn.functional.layer_norm': layerNorm(false),
  native_layer_norm: layerNorm(true),
  'nn.functional.group_norm': {
    as: 'GroupNormalization (opset 21)',
    call: (_rt, a) => {
      const x = t(a.input);
      const c = shapeOf(x)[1] ?? 1;
      const d = x.dtype as DType;
      const w = a.weight === null || a.weight === undefined ? filledLike(c, 1, d) : t(a.weight);
      const b = a.bias === null || a.bias === undefined ? filledLike(c, 0, d) : t(a.bias);
      const attrs = { num_groups: num(a.num_groups, 'num_groups'), epsilon: { float: num(a.eps, 'eps') } };
      return node('GroupNormalization', [x, w, b], attrs, { dtype: d });
    },
  },
  'nn.functional.local_response_norm': {
    as: 'LRN',
    call: (_rt, a) => {
      const x = t(a.input);
      const attrs = {
        size: num(a.size, 'size'),
        alpha: { float: num(a.alpha, 'alpha') },
        beta: { float: num(a.beta, 'beta') },
        bias: { float: num(a.k, 'k') },
      };
      return node('LRN', [x], attrs, { dtype: x.dtype });
    },
  },
  'nn.functional.linear': {
    as: 'MatMul(x, Transpose(weight)) (+ Add bias)',
    call: (_rt, a) => {
      const x = t(a.input);
      const w = t(a.weight);
      const wt = rankOf(w) === 2 ? node('Transpose', [w], { perm: [1, 0] }, { dtype: w.dtype }) : w;
      const y = node('MatMul', [x, wt], {}, { dtype: x.dtype });
      return a.bias === null || a.bias === undefined
        ? y
        : node('Add', [y, t(a.bias)], {}, { dtype: x.dtype });
    },
  },
  'nn.functional.dropout': dropout(),
  'nn.functional.dropout2d': dropout(),
  'nn.functional.dropout3d': dropout(),
  'nn.functional.feature_alpha_dropout': dropout(),
};

function layerNorm(native: boolean): Row {
  return {
    as: native ? 'LayerNormalization (Mean, InvStdDev outputs)' : 'LayerNormalization',
    call: (_rt, a) => {
      const x = t(a.input);
      const ns = a.normalized_shape as number[];
      const d = x.dtype as DType;
      const n = ns.reduce((p, q) => p * q, 1);
      const w = a.weight === null || a.weight === undefined ? konst(Array(n).fill(1), d, ns) : t(a.weight);
      const b = a.bias === null || a.bias === undefined ? konst(Array(n).fill(0), d, ns) : t(a.bias);
      const attrs = { axis: -ns.length, epsilon: { float: num(a.eps, 'eps') } };
      if (!native) return node('LayerNormalization', [x, w, b], attrs, { dtype: d });
      return nodeN('LayerNormalization', [x, w, b], attrs, [{ dtype: d }, { dtype: d }, { dtype: d }]);
    },
  };
}

function dropout(): Row {
  return {
    as: 'Dropout (inference)',
    call: (_rt, a) => {
      if (a.training !== false || num(a.p, 'p') !== 0)
        throw new NotExpressible('random: dropout in training draws a mask ONNX Dropout draws differently');
      return node('Identity', [operand(a.input, t(a.input).dtype as DType)]);
    },
  };
}
