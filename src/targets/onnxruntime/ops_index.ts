/** onnxruntime rows: indexing, padding and the factories. */
import type { DType } from '../../runtime/index.ts';
import { defaults, num } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import { type Args, axis, cast, operand, type Row, t } from './build.ts';
import { ints, konst, node, type OrtT, rankOf, scalar, shapeOf, tensorAttr } from './graph.ts';

const same = (x: OrtT, rank?: number) => ({ dtype: x.dtype, rank: rank ?? rankOf(x) });
const list = (v: unknown, what: string): number[] => {
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v as number[];
  if (typeof v === 'number') return [v];
  throw new NotExpressible(`${what} is not a list of ints`);
};

/** PyTorch's pad list (last dim first, begin/end pairs) as ONNX Pad's pads (all begins, then all ends). */
function pads(rank: number, pad: readonly number[]): number[] {
  const begin = Array(rank).fill(0);
  const end = Array(rank).fill(0);
  for (let i = 0; 2 * i < pad.length; i++) {
    begin[rank - 1 - i] = pad[2 * i];
    end[rank - 1 - i] = pad[2 * i + 1] ?? 0;
  }
  return [...begin, ...end];
}

/** ConstantOfShape with a fill value of `dtype` (the factories). */
function filled(shape: OrtT, value: number, dtype: DType): OrtT {
  return node('ConstantOfShape', [shape], { value: tensorAttr(konst([value], dtype, [1])) }, { dtype });
}

const factoryDType = (a: Args, fallback: DType): DType => {
  defaults(a, { layout: null, device: null, pin_memory: null });
  return (a.dtype as DType | null) ?? fallback;
};

export const INDEX: Readonly<Record<string, Row>> = {
  gather: {
    as: 'GatherElements',
    call: (_rt, a) => {
      defaults(a, { sparse_grad: false });
      const x = t(a.self);
      return node('GatherElements', [x, t(a.index)], { axis: axis(a.dim, rankOf(x)) }, same(x));
    },
  },
  index_select: {
    as: 'Gather',
    call: (_rt, a) => {
      const x = t(a.self);
      // A 0-dim index selects as a 1-element one in PyTorch; ONNX Gather drops the dim for it.
      const i =
        rankOf(t(a.index)) === 0 ? node('Reshape', [t(a.index), ints([1])], {}, { rank: 1 }) : t(a.index);
      return node('Gather', [x, i], { axis: axis(a.dim, rankOf(x)) }, same(x));
    },
  },
  scatter: {
    as: 'ScatterElements',
    call: (_rt, a) => {
      defaults(a, { reduce: null });
      const x = t(a.self);
      const idx = t(a.index);
      // PyTorch takes src's leading part where src is larger than index; ONNX wants updates shaped as indices.
      const src =
        a.src !== undefined && a.src !== null
          ? node('Slice', [t(a.src), ints(shapeOf(idx).map(() => 0)), ints([...shapeOf(idx)])], {}, same(x))
          : node('Expand', [operand(a.value, x.dtype as DType), node('Shape', [idx])], {}, same(x));
      return node(
        'ScatterElements',
        [x, idx, cast(src, x.dtype as DType)],
        { axis: axis(a.dim, rankOf(x)) },
        same(x),
      );
    },
  },
  masked_fill: {
    as: 'Where(mask, value, x)',
    call: (_rt, a) => {
      const x = t(a.self);
      return node('Where', [t(a.mask), operand(a.value, x.dtype as DType), x], {}, same(x));
    },
  },
  constant_pad_nd: {
    as: "Pad(mode='constant')",
    call: (_rt, a) => {
      const x = t(a.self);
      const p = pads(rankOf(x), list(a.pad, 'pad'));
      return node(
        'Pad',
        [x, ints(p), operand(num(a.value, 'value'), x.dtype as DType)],
        { mode: 'constant' },
        same(x),
      );
    },
  },
  'nn.functional.pad': {
    as: "Pad (mode 'constant' | 'reflect' | 'edge' | 'wrap')",
    call: (_rt, a) => {
      const x = t(a.self);
      const mode = { constant: 'constant', reflect: 'reflect', replicate: 'edge', circular: 'wrap' }[
        a.mode as string
      ];
      if (!mode) throw new NotExpressible(`pad mode ${String(a.mode)}`);
      const p = ints(pads(rankOf(x), list(a.pad, 'pad')));
      const v = mode === 'constant' ? operand(a.value ?? 0, x.dtype as DType) : null;
      return node('Pad', v ? [x, p, v] : [x, p], { mode }, same(x));
    },
  },
  'nn.functional.pixel_shuffle': {
    as: "DepthToSpace(mode='CRD')",
    call: (_rt, a) => {
      const x = t(a.self);
      if (rankOf(x) !== 4) throw new NotExpressible('DepthToSpace takes 4-D tensors only');
      return node(
        'DepthToSpace',
        [x],
        { blocksize: num(a.upscale_factor, 'upscale_factor'), mode: 'CRD' },
        same(x),
      );
    },
  },
  'nn.functional.one_hot': {
    as: 'OneHot',
    call: (_rt, a) => {
      const n = num(a.num_classes, 'num_classes');
      if (n < 0) throw new NotExpressible('num_classes=-1 (the depth would come from the values)');
      const x = t(a.self);
      return node(
        'OneHot',
        [x, scalar(n, 'int64'), konst([0, 1], 'int64')],
        { axis: -1 },
        { dtype: 'int64' },
      );
    },
  },
  'nn.functional.embedding': {
    as: 'Gather(weight, input)',
    call: (_rt, a) => {
      defaults(a, { max_norm: null });
      return node('Gather', [t(a.weight), t(a.input)], { axis: 0 }, { dtype: t(a.weight).dtype });
    },
  },
  zeros: {
    as: 'ConstantOfShape',
    call: (_rt, a) => filled(ints(list(a.size, 'size')), 0, factoryDType(a, 'float32')),
  },
  ones: {
    as: 'ConstantOfShape',
    call: (_rt, a) => filled(ints(list(a.size, 'size')), 1, factoryDType(a, 'float32')),
  },
  full: {
    as: 'ConstantOfShape',
    call: (_rt, a) =>
      filled(ints(list(a.size, 'size')), num(a.fill_value, 'fill_value'), factoryDType(a, 'float32')),
  },
  zeros_like: like(() => 0),
  ones_like: like(() => 1),
  full_like: like((a) => num(a.fill_value, 'fill_value')),
  arange: {
    as: 'Range',
    call: (_rt, a) => {
      const [s, e, st] = [a.start ?? 0, a.end, a.step ?? 1].map((v) => num(v, 'arange bound'));
      const d = factoryDType(a, [s, e, st].every(Number.isInteger) ? 'int64' : 'float32');
      return node('Range', [scalar(s, d), scalar(e, d), scalar(st, d)], {}, { dtype: d, rank: 1 });
    },
  },
  eye: {
    as: 'EyeLike(ConstantOfShape)',
    call: (_rt, a) => {
      const n = num(a.n, 'n');
      const m = a.m === undefined || a.m === null ? n : num(a.m, 'm');
      const d = factoryDType(a, 'float32');
      return node('EyeLike', [filled(ints([n, m]), 0, d)], {}, { dtype: d, rank: 2 });
    },
  },
};

function like(value: (a: Args) => number): Row {
  return {
    as: 'ConstantOfShape(Shape(x))',
    call: (_rt, a) => {
      defaults(a, { memory_format: null });
      const x = t(a.self);
      return filled(node('Shape', [x]), value(a), factoryDType(a, x.dtype as DType));
    },
  };
}
