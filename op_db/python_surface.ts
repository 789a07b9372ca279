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
  {
    spelling: /^Tensor\.(add|sub|mul)$/,
    keyword: 'out',
    reason:
      "the 1.13 stub lists out= on these methods, but PyTorch 1.13 refuses it (TypeError: add() got an unexpected keyword argument 'out'): nothing to cover",
  },
];
