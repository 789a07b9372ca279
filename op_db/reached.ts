/**
 * Operator-table ops with no OpInfo of their own, because PyTorch's Python function that op_db tests calls them
 * (F.dropout calls aten's dropout, F.embedding calls embedding): each names that OpInfo, whose samples must
 * reach it (tests/unit/op_db_coverage.test.ts runs them and counts the calls). Every other op has its own OpInfo.
 */
export interface ReachedThrough {
  /** The OpInfo whose samples call the op. */
  readonly info: string;
  readonly reason: string;
}

const via = (info: string, reason: string): ReachedThrough => ({ info, reason });

export const REACHED_THROUGH: Readonly<Record<string, ReachedThrough>> = {
  dropout: via('nn.functional.dropout', "F.dropout is _VF.dropout / _VF.dropout_ after Python's check of p"),
  feature_dropout: via('nn.functional.dropout2d', 'F.dropout2d and F.dropout3d are _VF.feature_dropout'),
  feature_alpha_dropout: via(
    'nn.functional.feature_alpha_dropout',
    'F.feature_alpha_dropout is _VF.feature_alpha_dropout',
  ),
  batch_norm: via(
    'nn.functional.batch_norm',
    'F.batch_norm checks the batch size, then calls torch.batch_norm',
  ),
  instance_norm: via(
    'nn.functional.instance_norm',
    'F.instance_norm checks the spatial size, then calls torch.instance_norm',
  ),
  embedding: via(
    'nn.functional.embedding',
    'F.embedding renormalises for max_norm, then calls torch.embedding',
  ),
  embedding_renorm_: via(
    'nn.functional.embedding',
    'F.embedding with max_norm renormalises the weight in place',
  ),
  _embedding_bag: via('nn.functional.embedding_bag', 'F.embedding_bag checks its arguments, then calls aten'),
  uniform_: via(
    'nn.functional.dropout',
    'every random op draws through uniform_ (the compiler records the draw)',
  ),
  ...Object.fromEntries(
    [
      'hinge_embedding_loss',
      'margin_ranking_loss',
      'soft_margin_loss',
      'cosine_embedding_loss',
      'triplet_margin_loss',
      'multi_margin_loss',
      'multilabel_margin_loss',
    ].map((op) => [
      op,
      via(
        `nn.functional.${op}`,
        `F.${op} turns its reduction name (or legacy flags) into aten's enum, then calls aten`,
      ),
    ]),
  ),
  multilabel_margin_loss_forward: via(
    'nn.functional.multilabel_margin_loss',
    'aten multilabel_margin_loss is multilabel_margin_loss_forward without its is_target output',
  ),
  ctc_loss: via(
    'nn.functional.ctc_loss',
    'F.ctc_loss turns its reduction name into the enum, then calls torch.ctc_loss',
  ),
  _ctc_loss: via(
    'nn.functional.ctc_loss',
    "ctc_loss computes each entry's loss with _ctc_loss, then reduces",
  ),
};
