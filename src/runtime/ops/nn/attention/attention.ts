/**
 * PyTorch 1.13's _scaled_dot_product_attention (the math path, which 1.13's cpu always takes), written in
 * differentiable runtime ops: query and key are each divided by E^(1/4) before their product (for stability, as
 * aten does), a bool mask becomes an additive one (-inf where False), is_causal masks above the diagonal, then
 * softmax over the keys and the product with value. Returns (output, attention weights); 1.13 returns the weights
 * whatever need_attn_weights says.
 */
import { InvalidArgumentError, type Tensor } from '../../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';

export const ATTENTION_API = {
  _scaled_dot_product_attention: 'function',
} as const satisfies ApiDecl;

const OP = '_scaled_dot_product_attention';

function attention(a: BoundArgs): Tensor[] {
  const query = a.query as Tensor;
  const key = a.key as Tensor;
  const value = a.value as Tensor;
  let mask = (a.attn_mask as Tensor | null) ?? null;
  const dropout = a.dropout_p as number;
  // size(-1) first: a 0-dim query raises here, as in aten.
  const embed = query.size(-1) as number;
  const scale = Math.sqrt(Math.sqrt(embed));
  const q = t('div', [query, scale]);
  if (a.is_causal) {
    if (mask)
      throw new InvalidArgumentError(
        '_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True',
        { op: OP, arg: 'attn_mask', got: 'a mask', expected: 'None with is_causal=True' },
      );
  }
  let attn = t('matmul', [q, t('div', [t('transpose', [key, -2, -1]), scale])]);
  // Masks are made from the tensors at hand (never a factory naming a device), so a traced graph replays them.
  if (a.is_causal) {
    const [l, s] = attn.shape.slice(-2);
    const scores = t('reshape', [attn, [-1, l, s]]);
    mask = t('tril', [t('ones_like', [t('select', [scores, 0, 0])], { dtype: 'bool' })]);
  }
  if (mask && mask.dtype === 'bool') {
    const zeros = t('zeros_like', [mask], { dtype: q.dtype });
    mask = t('masked_fill', [zeros, t('logical_not', [mask]), Number.NEGATIVE_INFINITY]);
  }
  // aten adds in place: the mask is cast to attn's dtype and must broadcast to attn's shape.
  if (mask) attn = t('add_', [attn, mask]);
  attn = t('softmax', [attn, -1]);
  // As 1.13's math path: the weights go through training-mode dropout (it checks p), then multiply value.
  if (dropout > 0) attn = t('dropout', [attn, dropout, true]);
  return [t('matmul', [attn, value]), attn];
}

export function registerAttention(): void {
  defineOp({
    schema:
      '_scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0., bool need_attn_weights=False, bool is_causal=False) -> (Tensor, Tensor)',
    tags: { family: 'linalg', decomposed: true },
    composite: attention,
  });
  operatorTable.alias('nn.functional._scaled_dot_product_attention', '_scaled_dot_product_attention');
  operatorTable.declare(ATTENTION_API);
}
