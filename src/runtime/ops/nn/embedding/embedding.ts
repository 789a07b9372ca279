/**
 * Embeddings: aten's embedding(weight, indices, ...) (rows of weight picked by index_select, with a derivative row
 * that is embedding_dense_backward written in runtime ops, so gradgrad works), embedding_renorm_ (max_norm, in
 * place) and F.embedding's Python signature (`_functional_embedding`, Python-only), which normalises padding_idx
 * and renormalises without recording, as torch/nn/functional.py does.
 */
import { defineDerivative, noGrad } from '../../../autograd/index.ts';
import {
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  IndexOutOfRangeError,
  InvalidArgumentError,
  NotImplementedError,
  type Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, operatorTable } from '../../../dispatch/index.ts';
import { indexReader, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';

export const EMBEDDING_API = {
  embedding: 'function',
  embedding_renorm_: 'function',
} as const satisfies ApiDecl;

const LEGACY_TYPE: Partial<Record<DType, string>> = {
  uint8: 'Byte',
  int8: 'Char',
  int16: 'Short',
  int32: 'Int',
  int64: 'Long',
  float16: 'Half',
  float32: 'Float',
  float64: 'Double',
};

/** PyTorch's name for a cpu tensor type in checkScalarTypes messages: torch.FloatTensor, CPUBoolType. */
export function tensorTypeName(d: DType): string {
  const legacy = LEGACY_TYPE[d];
  return legacy ? `torch.${legacy}Tensor` : `CPU${DTYPE_INFO[d].torchName}Type`;
}

/** checkScalarTypes(indices, {Long, Int}) as aten's embedding kernels run it. */
export function checkIndices(indices: Tensor, arg: string, op: string): void {
  if (indices.dtype !== 'int64' && indices.dtype !== 'int32')
    throw new DTypeUnsupportedError(
      `Expected tensor for argument #1 '${arg}' to have one of the following scalar types: Long, Int; but got ${tensorTypeName(indices.dtype)} instead (while checking arguments for ${op})`,
      { op, arg, got: indices.dtype, expected: 'int64 or int32' },
    );
}

export function check2d(x: Tensor, arg: string, op: string): void {
  if (x.dim() !== 2)
    throw new InvalidArgumentError(`'${arg}' must be 2-D`, { op, arg, got: x.dim(), expected: 2 });
}

/** An index tensor's values in logical order, read through its strides (cpu only). */
export function indexValues(x: Tensor): number[] {
  const read = indexReader(x);
  const out = new Array<number>(x.numel);
  const pos = new Array<number>(x.ndim).fill(0);
  for (let i = 0; i < out.length; i++) {
    let off = x.storageOffset;
    for (let d = 0; d < x.ndim; d++) off += pos[d] * x.strides[d];
    out[i] = read(off);
    for (let d = x.ndim - 1; d >= 0; d--) {
      if (++pos[d] < x.shape[d]) break;
      pos[d] = 0;
    }
  }
  return out;
}

export function refuseSparse(sparse: unknown, op: string): void {
  if (sparse)
    throw new NotImplementedError(
      `${op}: sparse=True asks for a sparse gradient of weight, and the runtime has no sparse tensors`,
      { op, arg: 'sparse', got: true, expected: 'sparse=False (a dense gradient)' },
    );
}

function embedding(weight: Tensor, indices: Tensor, sparse: unknown): Tensor {
  check2d(weight, 'weight', 'embedding');
  checkIndices(indices, 'indices', 'embedding');
  refuseSparse(sparse, 'embedding');
  const rows = t('index_select', [weight, 0, t('reshape', [indices, [-1]])]);
  return t('reshape', [rows, [...indices.shape, weight.shape[1]]]);
}

/**
 * embedding_dense_backward: grad's rows added into the rows they were read from; the padding row gets none, and
 * scale_grad_by_freq divides each row's gradient by how often its index occurs in `indices`.
 */
function embeddingBackward(
  grad: Tensor,
  indices: Tensor,
  numWeights: number,
  paddingIdx: number,
  scaleGradByFreq: boolean,
): Tensor {
  const dim = grad.shape[grad.ndim - 1];
  const idx = t('to', [t('reshape', [indices, [-1]]), 'int64']);
  let rows = t('reshape', [grad, [-1, dim]]);
  if (paddingIdx >= 0) rows = t('masked_fill', [rows, t('unsqueeze', [t('eq', [idx, paddingIdx]), 1]), 0]);
  if (scaleGradByFreq) {
    const ones = t('ones', [[idx.numel]], { dtype: grad.dtype, device: grad.device });
    const zeros = t('zeros', [[numWeights]], { dtype: grad.dtype, device: grad.device });
    const freq = t('scatter', [zeros, 0, idx, ones], { reduce: 'add' });
    rows = t('div', [rows, t('unsqueeze', [t('index_select', [freq, 0, idx]), 1])]);
  }
  const zeros = t('zeros', [[numWeights, dim]], { dtype: grad.dtype, device: grad.device });
  const at = t('expand', [t('unsqueeze', [idx, 1]), [idx.numel, dim]]);
  return t('scatter', [zeros, 0, at, rows], { reduce: 'add' });
}

/**
 * embedding_renorm_: every row `indices` names whose norm exceeds max_norm is scaled by max_norm / (norm + 1e-7).
 * The factor is computed in the rows' op-math dtype (PyTorch: a double scalar, applied in float for reduced
 * floats); duplicate indices write the same scaled row.
 */
function embeddingRenorm(self: Tensor, indices: Tensor, maxNorm: number, normType: number): Tensor {
  const op = 'embedding_renorm_';
  check2d(self, 'self', op);
  checkIndices(indices, 'indices', op);
  const kind = DTYPE_INFO[self.dtype].kind;
  if (kind !== 'float' && kind !== 'complex')
    throw new DTypeUnsupportedError(
      `norm(): input dtype should be either floating point or complex. Got ${DTYPE_INFO[self.dtype].torchName} instead.`,
      { op, arg: 'self', got: self.dtype, expected: 'a floating or complex dtype' },
    );
  const n = self.shape[0];
  // Checked before the first write (PyTorch's loop raises from select() after renormalising the smaller rows).
  if (self.device === 'cpu')
    for (const v of indexValues(indices))
      if (v < 0 || v >= n)
        throw new IndexOutOfRangeError(
          `select(): index ${v} out of range for tensor of size [${self.shape.join(', ')}] at dimension 0`,
          { op, arg: 'indices', got: v, expected: `in [0, ${n - 1}]` },
        );
  const idx = t('to', [t('reshape', [indices, [-1]]), 'int64']);
  const rows = t('index_select', [self, 0, idx]);
  const norms = t('linalg_vector_norm', [rows, normType, [1]]);
  const opmath = norms.dtype === 'float64' ? 'float64' : 'float32';
  const norm = t('to', [norms, opmath]);
  const factor = t('where', [
    t('gt', [norm, maxNorm]),
    t('reciprocal', [t('div', [t('add', [norm, 1e-7]), maxNorm])]),
    1,
  ]);
  const scaled = t('to', [t('mul', [rows, t('unsqueeze', [factor, 1])]), self.dtype]);
  const at = t('expand', [t('unsqueeze', [idx, 1]), [idx.numel, self.shape[1]]]);
  return t('scatter_', [self, 0, at, scaled]);
}

/** F.embedding: padding_idx in [-num_embeddings, num_embeddings), negatives counted from the end. */
function functionalEmbedding(a: Record<string, unknown>): Tensor {
  const input = a.input as Tensor;
  const weight = a.weight as Tensor;
  const op = 'embedding';
  let padding = a.padding_idx as number | null;
  if (padding !== null) {
    const n = weight.shape[0];
    if (padding >= n || padding < -n)
      throw new InvalidArgumentError('Padding_idx must be within num_embeddings', {
        op,
        arg: 'padding_idx',
        got: padding,
        expected: `in [${-n}, ${n - 1}]`,
      });
    if (padding < 0) padding += n;
  }
  if (a.max_norm !== null) {
    const maxNorm = a.max_norm as number;
    noGrad(() => t('embedding_renorm_', [weight, input, maxNorm, a.norm_type]));
  }
  return t('embedding', [weight, input, padding ?? -1, a.scale_grad_by_freq, a.sparse]);
}

export function registerEmbedding(): void {
  defineOp({
    schema:
      'embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor',
    tags: { family: 'indexing' },
    composite: (a) => embedding(a.weight as Tensor, a.indices as Tensor, a.sparse),
  });
  defineDerivative('embedding', {
    saves: ['indices'],
    formula: (c) => [
      embeddingBackward(
        c.grad,
        c.args.indices as Tensor,
        c.shapes.weight[0],
        c.args.padding_idx as number,
        c.args.scale_grad_by_freq as boolean,
      ),
      null,
    ],
  });
  defineOp({
    schema:
      'embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) -> Tensor(a!)',
    tags: { family: 'indexing', decomposed: true },
    composite: (a) =>
      embeddingRenorm(a.self as Tensor, a.indices as Tensor, a.max_norm as number, a.norm_type as number),
  });
  defineOp({
    schema:
      '_functional_embedding(Tensor input, Tensor(a!) weight, int? padding_idx=None, float? max_norm=None, float norm_type=2., bool scale_grad_by_freq=False, bool sparse=False) -> Tensor',
    tags: { family: 'indexing', decomposed: true, pythonOnly: true },
    composite: (a) => functionalEmbedding(a),
  });
  operatorTable.alias('nn.functional.embedding', '_functional_embedding');
  operatorTable.declare(EMBEDDING_API);
}
