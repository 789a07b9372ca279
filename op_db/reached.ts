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
  _functional_tensor_norm: via(
    'norm',
    "Tensor.norm (torch/_tensor.py) is the runtime's _functional_tensor_norm: OpInfo norm's method form calls it",
  ),
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
    // aten's adaptive_avg_pool2d, adaptive_max_pool2d, fractional_max_pool2d and max_pool{2,3}d_with_indices
    // have OpInfos of their own (their out= overloads write through strides and offsets).
    [2, 3].flatMap((k) => [
      ...(k === 2
        ? []
        : [
            [
              `adaptive_avg_pool${k}d`,
              via(
                `nn.functional.adaptive_avg_pool${k}d`,
                `F.adaptive_avg_pool${k}d fills None sizes, then calls aten`,
              ),
            ],
          ]),
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
    [1, 3].map((k) => [
      `adaptive_max_pool${k}d`,
      via(
        `nn.functional.adaptive_max_pool${k}d`,
        `F.adaptive_max_pool${k}d picks the outputs return_indices asks for`,
      ),
    ]),
  ),
  ...Object.fromEntries(
    [3].map((k) => [
      `fractional_max_pool${k}d`,
      via(
        `nn.functional.fractional_max_pool${k}d`,
        `F.fractional_max_pool${k}d turns output_ratio into sizes and draws the samples, then calls aten`,
      ),
    ]),
  ),
  _embedding_bag: via('nn.functional.embedding_bag', 'F.embedding_bag checks its arguments, then calls aten'),
  ...Object.fromEntries(
    [1, 2, 3].flatMap((n) => [
      [
        `max_pool${n}d`,
        via(`nn.functional.max_pool${n}d`, `F.max_pool${n}d without return_indices is torch.max_pool${n}d`),
      ],
      ...(n === 1
        ? [
            [
              `max_pool${n}d_with_indices`,
              via(
                `nn.functional.max_pool${n}d`,
                `F.max_pool${n}d(return_indices=True) and torch.max_pool${n}d call it`,
              ),
            ],
          ]
        : []),
    ]),
  ),
  max_unpool3d: via('nn.functional.max_unpool3d', 'F.max_unpool3d computes output_size, then calls aten'),
  convolution: via(
    'nn.functional.conv2d',
    'torch.conv1d/2d/3d and conv_transpose1d/2d/3d batchify their input, then call aten convolution',
  ),
  ...Object.fromEntries(
    ['reflection', 'replication'].flatMap((kind) =>
      [1, 2, 3].map((k) => [
        `${kind}_pad${k}d`,
        via(
          'nn.functional.pad',
          `F.pad (aten::pad) calls ${kind}_pad${k}d for ${kind === 'reflection' ? 'reflect' : 'replicate'} mode with ${2 * k} pads`,
        ),
      ]),
    ),
  ),
  _pad_circular: via('nn.functional.pad', "F.pad (aten::pad) calls _pad_circular for mode='circular'"),
  im2col: via('nn.functional.unfold', 'F.unfold is torch._C._nn.im2col with _pair-ed arguments'),
  col2im: via('nn.functional.fold', 'F.fold is torch._C._nn.col2im with _pair-ed arguments'),
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
  nll_loss_forward: via('nn.functional.nll_loss', 'nll_loss is the first output of nll_loss_forward'),
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
  ...Object.fromEntries(
    [1, 2, 3].flatMap((k) => [
      // upsample_nearest2d has an OpInfo of its own (nn/resample/upsample.ts: its out= and .vec checks).
      ...(k === 2
        ? []
        : [
            [
              `upsample_nearest${k}d`,
              via('nn.functional.interpolate', "F.interpolate's mode='nearest' calls the .vec overload"),
            ],
          ]),
      [
        `_upsample_nearest_exact${k}d`,
        via('nn.functional.interpolate', "F.interpolate's mode='nearest-exact' calls the .vec overload"),
      ],
    ]),
  ),
  upsample_linear1d: via(
    'nn.functional.interpolate',
    "F.interpolate's mode='linear' calls the .vec overload",
  ),
  _upsample_bilinear2d_aa: via(
    'nn.functional.interpolate',
    "F.interpolate's mode='bilinear' with antialias=True calls the .vec overload",
  ),
  _upsample_bicubic2d_aa: via(
    'nn.functional.interpolate',
    "F.interpolate's mode='bicubic' with antialias=True calls the .vec overload",
  ),
  upsample_bicubic2d: via(
    'nn.functional.interpolate',
    "F.interpolate's mode='bicubic' calls the .vec overload",
  ),
  upsample_trilinear3d: via(
    'nn.functional.interpolate',
    "F.interpolate's mode='trilinear' calls the .vec overload",
  ),
  grid_sampler: via(
    'nn.functional.grid_sample',
    'F.grid_sample turns its mode names into enums, then calls torch.grid_sampler',
  ),
  grid_sampler_2d: via('nn.functional.grid_sample', 'torch.grid_sampler of a 4-D input is grid_sampler_2d'),
  grid_sampler_3d: via('nn.functional.grid_sample', 'torch.grid_sampler of a 5-D input is grid_sampler_3d'),
  ...Object.fromEntries(
    [
      'hinge_embedding_loss',
      'margin_ranking_loss',
      'cosine_embedding_loss',
      'triplet_margin_loss',
      // multi_margin_loss, multilabel_margin_loss and soft_margin_loss have OpInfos of their own (nn/loss/aten.ts).
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
