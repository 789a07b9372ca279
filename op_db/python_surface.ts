/**
 * What op_db declares about PyTorch 1.13's Python surface (the signatures in torch_python_signatures.txt) that no
 * sample covers: a spelling's signature, or one keyword of it, that the runtime does not take, with the reason.
 * `opgate coverage` counts every other signature and keyword as uncovered until a sample binds to it.
 */
export interface PythonDeclaration {
  /** The spellings it covers (`torch.add`, or a pattern); every spelling when left out. */
  readonly spelling?: string | RegExp;
  /** The signatures it covers: a pattern on the parameter list as written; every one when left out. */
  readonly signature?: RegExp;
  /** One keyword of those signatures; the whole signature when left out. */
  readonly keyword?: string;
  readonly reason: string;
}

import {
  DECIMALS,
  INPLACE_VIEW,
  NORM_DTYPE,
  OUT_FORM,
  OUT_STATS,
  OUT_TUPLE,
  SCALAR_SELF,
  TO_OTHER,
  VIEW_DTYPE,
  WHERE_NONZERO,
} from './overloads.ts';

const NAMED = 'named tensors (Dimname dims, names=): the runtime has no dimension names';

export const pythonDeclarations: readonly PythonDeclaration[] = [
  // Named-tensor overloads: a dim given by name (`Union[str, ellipsis, None]`), or names= on a factory.
  { signature: /Union\[str, ellipsis, None\]/, reason: NAMED },
  { signature: /\bnames: /, reason: NAMED },
  {
    spelling: /^torch\.(add|sub)$/,
    signature: /\(self: Tensor, alpha: Number, other: Tensor/,
    reason:
      'the deprecated positional-alpha form (torch.add(x, 2, y)); PyTorch 1.13 warns and maps it to alpha=, which the runtime takes',
  },
  // The Python faces of the aten overloads op_db/overloads.ts declares, with the same reasons.
  { spelling: /^Tensor\.(detach_|transpose_|t_|squeeze_|unsqueeze_|as_strided_)$/, reason: INPLACE_VIEW },
  { spelling: 'Tensor.view', signature: /dtype: _dtype/, reason: VIEW_DTYPE },
  { spelling: 'Tensor.to', signature: /other: Tensor/, reason: TO_OTHER },
  {
    spelling: /^torch\.(remainder|pow|bitwise_and|bitwise_or|bitwise_xor)$/,
    signature: /^\(self: Number, /,
    reason: SCALAR_SELF,
  },
  { spelling: 'torch.where', signature: /^\(condition: Tensor\) ->/, reason: WHERE_NONZERO },
  {
    spelling: /^(torch|Tensor)\.narrow$/,
    signature: /start: Tensor/,
    reason:
      "a 0-dim integer tensor start is read as an int (__index__), on cpu only: a webgpu tensor cannot be read synchronously and a meta tensor has no value (PyTorch's narrow.Tensor calls start.item() too); op_db's samples run on every device, so none samples it",
  },
  {
    spelling: 'Tensor.where',
    reason:
      "the method takes the value where the condition holds as its receiver (x.where(c, y) is torch.where(c, x, y)), so op_db's where samples (condition first) cannot call it; tests/unit/where_clamp_indexing.test.ts checks it against the function",
  },
  { spelling: /^torch\.(max|min|sort|topk)$/, keyword: 'out', reason: OUT_TUPLE },
  { spelling: 'torch.round', signature: /decimals/, keyword: 'out', reason: DECIMALS },
  { spelling: 'torch.native_batch_norm', keyword: 'out', reason: OUT_STATS },
  { spelling: /^torch\.(empty|zeros|ones|full|arange|linspace|eye)$/, keyword: 'out', reason: OUT_FORM },
  { spelling: 'Tensor.norm', keyword: 'dtype', reason: NORM_DTYPE },
  {
    spelling: /^torch\.nn\.functional\.(log_)?softmax$/,
    keyword: '_stacklevel',
    reason:
      'picks which caller a Python warning names (the implicit-dim deprecation); the runtime raises no Python warnings, so there is nothing for it to pick',
  },
  {
    spelling: /^Tensor\.(add|sub|mul)$/,
    keyword: 'out',
    reason:
      "the 1.13 stub lists out= on these methods, but PyTorch 1.13 refuses it (TypeError: add() got an unexpected keyword argument 'out'): nothing to cover",
  },
];
