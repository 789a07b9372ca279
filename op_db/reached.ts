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
  ...Object.fromEntries(
    [2, 3].flatMap((k) => [
      [
        `adaptive_avg_pool${k}d`,
        via(
          `nn.functional.adaptive_avg_pool${k}d`,
          `F.adaptive_avg_pool${k}d fills None sizes, then calls aten`,
        ),
      ],
      [
        `_adaptive_avg_pool${k}d`,
        via(
          `nn.functional.adaptive_avg_pool${k}d`,
          `aten's adaptive_avg_pool${k}d pools with it unless every output size is 1 (a mean)`,
        ),
      ],
    ]),
  ),
  ...Object.fromEntries(
    [1, 2, 3].map((k) => [
      `adaptive_max_pool${k}d`,
      via(
        `nn.functional.adaptive_max_pool${k}d`,
        `F.adaptive_max_pool${k}d picks the outputs return_indices asks for`,
      ),
    ]),
  ),
  ...Object.fromEntries(
    [2, 3].map((k) => [
      `fractional_max_pool${k}d`,
      via(
        `nn.functional.fractional_max_pool${k}d`,
        `F.fractional_max_pool${k}d turns output_ratio into sizes and draws the samples, then calls aten`,
      ),
    ]),
  ),
  _embedding_bag: via('nn.functional.embedding_bag', 'F.embedding_bag checks its arguments, then calls aten'),
  uniform_: via(
    'nn.functional.dropout',
    'every random op draws through uniform_ (the compiler records the draw)',
  ),
};
