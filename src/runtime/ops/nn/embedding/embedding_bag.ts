/**
 * Embedding bags: aten's _embedding_bag (sums, means or maxima of bags of weight rows; a cpu kernel that reads
 * indices, offsets and weight through their strides, and a meta kernel) with a derivative row written in runtime
 * ops, and F.embedding_bag's Python signature (`_functional_embedding_bag`, Python-only), which checks its
 * arguments, turns a 2-D input into fixed-size bags and renormalises (max_norm) as torch/nn/functional.py does.
 * Besides the output, the kernel returns its bookkeeping as aten does (offset2bag: each index's bag, the number of
 * bags for indices past the last offset under include_last_offset; bag_size: each bag's non-padding count;
 * max_indices: the row each maximum came from, -1 for an empty bag, [B, D] in max mode and zeros [B] otherwise).
 * There is no webgpu kernel: the bags and the maxima are read on the host.
 */
import { defineDerivative, noGrad } from '../../../autograd/index.ts';
import { numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import {
  DimOutOfRangeError,
  DTypeUnsupportedError,
  IndexOutOfRangeError,
  InvalidArgumentError,
  NotImplementedError,
  type Tensor,
} from '../../../core/index.ts';
import { type BoundArgs, callOp, operatorTable } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import { checkIndices, indexValues, refuseSparse, tensorTypeName } from './embedding.ts';

const OP = 'embedding_bag';
const MODES = { sum: 0, mean: 1, max: 2 } as const;

interface Bags {
  readonly weight: Tensor;
  readonly indices: Tensor;
  readonly offsets: Tensor;
  readonly mode: number;
  readonly psw: Tensor | null;
  readonly includeLast: boolean;
  /** Normalised: in [0, num_embeddings), or -1 for none. */
  readonly padding: number;
  readonly numBags: number;
}

/** The checks aten runs before reading any value. */
function checkBags(a: BoundArgs): Bags {
  const weight = a.weight as Tensor;
  const indices = a.indices as Tensor;
  const offsets = a.offsets as Tensor;
  const psw = (a.per_sample_weights as Tensor | null) ?? null;
  const includeLast = a.include_last_offset as boolean;
  refuseSparse(a.sparse, OP);
  checkIndices(indices, 'indices', OP);
  // aten promotes indices and offsets to one type first: a floating offsets makes the indices floating.
  if (offsets.dtype !== 'int64' && offsets.dtype !== 'int32') checkIndices(offsets, 'indices', OP);
  if (weight.dtype !== 'float16' && weight.dtype !== 'float32' && weight.dtype !== 'float64')
    throw new DTypeUnsupportedError(
      `Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, Float, Double; but got ${tensorTypeName(weight.dtype)} instead (while checking arguments for embedding_bag)`,
      { op: OP, arg: 'weight', got: weight.dtype, expected: 'float16, float32 or float64' },
    );
  if (weight.dim() < 2)
    throw new DimOutOfRangeError(
      `Dimension out of range (expected to be in range of [${-Math.max(weight.dim(), 1)}, ${Math.max(weight.dim(), 1) - 1}], but got 1)`,
      { op: OP, arg: 'weight', got: weight.dim(), expected: 2 },
    );
  if (psw && psw.dtype !== weight.dtype)
    throw new DTypeUnsupportedError(
      `Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 'per_sample_weights'; but type ${tensorTypeName(weight.dtype)} does not equal ${tensorTypeName(psw.dtype)} (while checking arguments for embedding_bag)`,
      { op: OP, arg: 'per_sample_weights', got: psw.dtype, expected: weight.dtype },
    );
  if (includeLast && offsets.numel < 1)
    throw new InvalidArgumentError('include_last_offset: number of offset should be at least 1', {
      op: OP,
      arg: 'offsets',
      got: 0,
      expected: 'at least one offset',
    });
  // Normalised by embedding_bag (F's padding_idx): -1 is none.
  const padding = a.padding_idx as number;
  const numBags = includeLast ? offsets.numel - 1 : offsets.numel;
  return { weight, indices, offsets, mode: a.mode as number, psw, includeLast, padding, numBags };
}

/** The value checks, then each index's bag (numBags for indices past the last offset, include_last_offset). */
function bagOf(b: Bags, idx: readonly number[], offs: readonly number[]): Int32Array {
  const n = idx.length;
  if (offs.length > 0 && offs[0] !== 0)
    throw new InvalidArgumentError(
      `offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got ${offs[0]}`,
      { op: OP, arg: 'offsets', got: offs[0], expected: 0 },
    );
  const last = offs[offs.length - 1];
  if (offs.length > 0 && last > n)
    throw new InvalidArgumentError(
      `offsets[-1] can not be greater than input's length ${n} but got offsets[-1] of ${last}`,
      { op: OP, arg: 'offsets', got: last, expected: `at most ${n}` },
    );
  const rows = b.weight.shape[0];
  for (const v of idx)
    if (v < 0 || v >= rows)
      throw new IndexOutOfRangeError(
        `embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be ${v}`,
        { op: OP, arg: 'indices', got: v, expected: `in [0, ${rows - 1}]` },
      );
  const bag = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    while (k + 1 < offs.length && offs[k + 1] <= i) k++;
    bag[i] = Math.min(k, b.numBags);
  }
  return bag;
}

function empty(shape: number[], like: Tensor, dtype = like.dtype): Tensor {
  return t('empty', [shape], { dtype, device: like.device });
}

function embeddingBagMeta(a: BoundArgs): Tensor[] {
  const b = checkBags(a);
  const d = b.weight.shape[1];
  return [
    empty([b.numBags, d], b.weight),
    empty([b.indices.numel], b.indices, 'int64'),
    empty([b.numBags], b.indices, 'int64'),
    empty(b.mode === MODES.max ? [b.numBags, d] : [b.numBags], b.indices, 'int64'),
  ];
}

/** Logical element (row, col) of a 2-D tensor, through its strides. */
const at2 = (x: Tensor, r: number, c: number) => x.storageOffset + r * x.strides[0] + c * x.strides[1];

function embeddingBagCpu(a: BoundArgs): Tensor[] {
  const b = checkBags(a);
  const { weight, mode, padding, numBags } = b;
  const idx = indexValues(b.indices);
  const bag = bagOf(b, idx, indexValues(b.offsets));
  const d = weight.shape[1];
  const read = numberReader(weight.dtype);
  const w = weight.storage.data!;
  const psw = b.psw;
  const pswRead = psw ? numberReader(psw.dtype) : null;
  const acc = new Float64Array(numBags * d);
  const size = new Array<number>(numBags).fill(0);
  const maxRow = new Array<number>(mode === MODES.max ? numBags * d : 0).fill(-1);
  for (let i = 0; i < idx.length; i++) {
    const g = bag[i];
    if (g >= numBags || idx[i] === padding) continue;
    const scale = psw && pswRead ? pswRead(psw.storage.data!, psw.storageOffset + i * psw.strides[0]) : 1;
    for (let c = 0; c < d; c++) {
      const v = read(w, at2(weight, idx[i], c));
      const o = g * d + c;
      // PyTorch's max keeps the first maximum (a strict >), and a NaN only when it comes first.
      if (mode === MODES.max) {
        if (size[g] === 0 || v > acc[o]) {
          acc[o] = v;
          maxRow[o] = idx[i];
        }
      } else acc[o] += v * scale;
    }
    size[g]++;
  }
  const out = empty([numBags, d], weight);
  const write = numberWriter(weight.dtype);
  const data = out.storage.data!;
  for (let o = 0; o < acc.length; o++) {
    const count = size[Math.floor(o / d)];
    write(data, o, mode === MODES.mean && count > 0 ? acc[o] / count : acc[o]);
  }
  const long = (values: ArrayLike<number>, shape: number[]) => {
    const x = empty(shape, weight, 'int64');
    const xs = x.storage.data as BigInt64Array;
    for (let i = 0; i < values.length; i++) xs[i] = BigInt(values[i]);
    return x;
  };
  return [
    out,
    long(bag, [idx.length]),
    long(size, [numBags]),
    mode === MODES.max ? long(maxRow, [numBags, d]) : long(new Array(numBags).fill(0), [numBags]),
  ];
}

/**
 * The gradients of weight and per_sample_weights, in runtime ops (differentiable, so gradgrad works): each index's
 * row gets its bag's gradient times its factor (its per-sample weight; 1 / bag size for mean; 0 for padding and
 * for indices in no bag), divided by its index's frequency under scale_grad_by_freq; in max mode each bag's
 * gradient goes to the rows its maxima came from.
 */
function embeddingBagBackward(
  grad: Tensor,
  a: BoundArgs,
  results: readonly Tensor[],
  numWeights: number,
): [Tensor, Tensor | null] {
  const weight = a.weight as Tensor;
  const indices = t('to', [a.indices, 'int64']);
  const psw = (a.per_sample_weights as Tensor | null) ?? null;
  const [, offset2bag, bagSize, maxIndices] = results;
  const [numBags, d] = [grad.shape[0], grad.shape[1]];
  const n = indices.numel;
  const zeros = (shape: number[]) => t('zeros', [shape], { dtype: grad.dtype, device: grad.device });
  if (a.mode === MODES.max) {
    const empty = t('lt', [maxIndices, 0]);
    const rows = t('clamp', [maxIndices], { min: 0 });
    const g = t('masked_fill', [grad, empty, 0]);
    return [t('scatter', [zeros([numWeights, d]), 0, rows, g], { reduce: 'add' }), null];
  }
  if (numBags === 0 || n === 0) return [zeros([numWeights, d]), psw ? t('zeros_like', [psw]) : null];
  const inBag = t('lt', [offset2bag, numBags]);
  const valid = t('logical_and', [inBag, t('ne', [indices, a.padding_idx as number])]);
  const bagIdx = t('clamp', [offset2bag], { max: numBags - 1 });
  const rowGrad = t('index_select', [grad, 0, bagIdx]);
  let factor = t('to', [valid, grad.dtype]);
  if (psw) factor = t('mul', [factor, psw]);
  if (a.mode === MODES.mean) {
    const sizes = t('to', [t('clamp', [t('index_select', [bagSize, 0, bagIdx])], { min: 1 }), grad.dtype]);
    factor = t('div', [factor, sizes]);
  }
  if (a.scale_grad_by_freq) {
    const freq = t('scatter', [zeros([numWeights]), 0, indices, t('ones', [[n]], { dtype: grad.dtype })], {
      reduce: 'add',
    });
    factor = t('div', [factor, t('index_select', [freq, 0, indices])]);
  }
  const rows = t('mul', [rowGrad, t('unsqueeze', [factor, 1])]);
  const at = t('expand', [t('unsqueeze', [indices, 1]), [n, d]]);
  const gw = t('scatter', [zeros([numWeights, d]), 0, at, rows], { reduce: 'add' });
  if (!psw) return [gw, null];
  const dots = t('sum', [t('mul', [t('index_select', [weight, 0, indices]), rowGrad]), [1]]);
  return [gw, t('mul', [dots, t('to', [valid, grad.dtype])])];
}

const BAG_ARGS =
  'Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1';

/** F.embedding_bag: the Python function's checks, in its order, then aten's _embedding_bag. */
function functionalEmbeddingBag(a: BoundArgs): Tensor {
  let input = a.input as Tensor;
  const weight = a.weight as Tensor;
  let offsets = (a.offsets as Tensor | null) ?? null;
  let psw = (a.per_sample_weights as Tensor | null) ?? null;
  const mode = a.mode as string;
  const invalid = (message: string, arg: string, got: unknown, expected: string) =>
    new InvalidArgumentError(message, { op: OP, arg, got, expected });
  if (psw && psw.shape.join() !== input.shape.join())
    throw invalid(
      `embedding_bag: If per_sample_weights (torch.Size([${psw.shape.join(', ')}])) is not None, then it must have the same shape as the input (torch.Size([${input.shape.join(', ')}]))`,
      'per_sample_weights',
      psw.shape,
      `input's shape [${input.shape.join(', ')}]`,
    );
  if (input.dim() === 2) {
    if (offsets)
      throw invalid(
        "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences. However, found offsets of type <class 'torch.Tensor'>",
        'offsets',
        'a tensor',
        'None',
      );
    const width = input.shape[1];
    if (width === 0)
      throw invalid('step must be nonzero', 'input', input.shape, 'bags of at least one index');
    // arange(0, numel, width) from the input itself (a factory naming a device would not replay when traced).
    const ones = t('ones_like', [t('select', [input, 1, 0])]);
    offsets = t('mul', [t('sub', [t('cumsum', [ones, 0]), ones]), width]);
    input = t('reshape', [input, [-1]]);
    if (psw) psw = t('reshape', [psw, [-1]]);
  } else if (input.dim() === 1) {
    if (!offsets)
      throw invalid('offsets has to be a 1D Tensor but got None', 'offsets', null, 'a 1-D tensor');
    if (offsets.dim() !== 1) throw invalid('offsets has to be a 1D Tensor', 'offsets', offsets.dim(), '1-D');
  } else
    throw invalid(
      `input has to be 1D or 2D Tensor, but got Tensor of dimension ${input.dim()}`,
      'input',
      input.dim(),
      '1-D or 2-D',
    );
  if (!(mode in MODES))
    throw invalid('mode has to be one of sum, mean or max', 'mode', mode, 'sum, mean or max');
  if (mode === 'max' && a.scale_grad_by_freq)
    throw invalid(
      'max mode does not support scaling the gradient by the frequency',
      'scale_grad_by_freq',
      true,
      'False',
    );
  if (mode === 'max' && a.sparse)
    throw invalid('max mode does not support sparse weights', 'sparse', true, 'False');
  if (a.max_norm !== null) {
    const maxNorm = a.max_norm as number;
    noGrad(() => t('embedding_renorm_', [weight, input, maxNorm, a.norm_type]));
  }
  if (psw && mode !== 'sum')
    throw new NotImplementedError(
      `embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' (got mode='${mode}'). Please open a feature request on GitHub.`,
      { op: OP, arg: 'per_sample_weights', got: mode, expected: "mode='sum'" },
    );
  const mode_ = MODES[mode as keyof typeof MODES];
  // aten's embedding_bag.padding_idx: in [-num_embeddings, num_embeddings), negatives from the end; None is -1.
  let padding = (a.padding_idx as number | null) ?? -1;
  if (a.padding_idx !== null) {
    const n = weight.shape[0];
    if (padding < -n || padding >= n)
      throw invalid(
        `padding_idx must be within the number of embeddings, ${-n} through ${n - 1}, but got ${padding}`,
        'padding_idx',
        padding,
        `in [${-n}, ${n - 1}]`,
      );
    if (padding < 0) padding += n;
  }
  const out = callOp(
    '_embedding_bag',
    [weight, input, offsets, a.scale_grad_by_freq, mode_, a.sparse, psw, a.include_last_offset, padding],
    {},
  ) as Tensor[];
  return out[0];
}

export function registerEmbeddingBag(): void {
  defineOp({
    schema: `_embedding_bag(${BAG_ARGS}) -> (Tensor, Tensor, Tensor, Tensor)`,
    tags: { family: 'indexing' },
    cpu: embeddingBagCpu,
    meta: embeddingBagMeta,
    webgpu: () => {
      throw new NotImplementedError('embedding_bag has no webgpu kernel: its bags are read on the host', {
        op: OP,
        arg: 'weight',
        got: 'webgpu',
        expected: 'cpu or meta',
      });
    },
  });
  defineDerivative('_embedding_bag', {
    name: 'EmbeddingBagBackward0',
    saves: ['weight', 'indices', 'per_sample_weights', 'result'],
    nondiffOutputs: [1, 2, 3],
    formula: (c) => {
      const [gw, gp] = embeddingBagBackward(c.grad, c.args, c.results, c.shapes.weight[0]);
      return [gw, null, null, gp];
    },
  });
  defineOp({
    schema:
      "_functional_embedding_bag(Tensor input, Tensor(a!) weight, Tensor? offsets=None, float? max_norm=None, float norm_type=2, bool scale_grad_by_freq=False, str mode='mean', bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int? padding_idx=None) -> Tensor",
    tags: { family: 'indexing', decomposed: true, pythonOnly: true },
    composite: functionalEmbeddingBag,
  });
  operatorTable.alias('nn.functional.embedding_bag', '_functional_embedding_bag');
}
