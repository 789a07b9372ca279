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
  ...Object.fromEntries(
    ['l1_loss', 'mse_loss', 'smooth_l1_loss', 'huber_loss', 'kl_div', 'poisson_nll_loss'].map((op) => [
      op,
      via(
        `nn.functional.${op}`,
        `F.${op} maps its string reduction (and the legacy size_average / reduce) to aten's int, then calls aten`,
      ),
    ]),
  ),
  nll_loss_nd: via(
    'nn.functional.nll_loss',
    'F.nll_loss maps its reduction to an int, then calls aten nll_loss_nd',
  ),
  nll_loss: via('nn.functional.nll_loss', 'nll_loss_nd calls nll_loss for 1-d and 2-d inputs'),
  nll_loss_forward: via('nn.functional.nll_loss', 'nll_loss is the first output of nll_loss_forward'),
  nll_loss2d: via('nn.functional.nll_loss', 'nll_loss_nd calls nll_loss2d for 3-d and more dims'),
  nll_loss2d_forward: via('nn.functional.nll_loss', 'nll_loss2d is the first output of nll_loss2d_forward'),
  cross_entropy_loss: via(
    'nn.functional.cross_entropy',
    'F.cross_entropy maps its reduction to an int, then calls aten cross_entropy_loss',
  ),
  binary_cross_entropy: via(
    'nn.functional.binary_cross_entropy',
    "F.binary_cross_entropy checks the target's size and expands the weight, then calls aten",
  ),
  binary_cross_entropy_with_logits: via(
    'nn.functional.binary_cross_entropy_with_logits',
    "F.binary_cross_entropy_with_logits checks the target's size, then calls aten",
  ),
  uniform_: via(
    'nn.functional.dropout',
    'every random op draws through uniform_ (the compiler records the draw)',
  ),
};
