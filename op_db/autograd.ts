/**
 * Autograd claims of the op_db: an OpInfo with float64 backward dtypes claims gradcheck, gradgradcheck and
 * backward consistency unless it is listed here with the reason it is not differentiable (or why its second
 * derivative is not checked). The claims are data the autograd oracles test, not a mirror of the runtime.
 */
import type { OpInfo } from './types.ts';

const reasons = (names: readonly string[], reason: string) =>
  Object.fromEntries(names.map((n) => [n, reason]));

/** OpInfos that are not differentiable, by OpInfo name. */
export const NOT_DIFFERENTIABLE: Readonly<Record<string, string>> = {
  ...reasons(['eq', 'ne', 'lt', 'le', 'gt', 'ge'], 'comparison: bool result'),
  ...reasons(['logical_and', 'logical_or', 'logical_xor', 'logical_not'], 'logical op: bool result'),
  ...reasons(
    ['bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_not'],
    'bitwise op: integer/bool domain only',
  ),
  ...reasons(['isnan', 'isinf', 'isfinite'], 'predicate: bool result'),
  ...reasons(['argmax', 'argmin', 'all', 'any'], 'integer/bool result'),
  detach: 'returns a tensor without history, by definition',
  _ctc_loss_backward: 'PyTorch 1.13 has no derivative of _ctc_loss_backward (a kernel of its own)',
  resize_: 'resize_ is refused by PyTorch on tensors that require grad',
  'nn.functional.one_hot': 'int64 class indices in, int64 indicators out',
};

/** OpInfos whose first derivative is checked but whose second is not, with the reason. */
export const NO_GRADGRAD: Readonly<Record<string, string>> = {
  'nn.functional.grid_sample':
    'PyTorch 1.13\'s grid_sampler_2d_backward has no derivative ("derivative for aten::grid_sampler_2d_backward ' +
    "is not implemented\"); the runtime's decomposition would differentiate twice, but that is not PyTorch's claim",
  'nn.functional.ctc_loss':
    'PyTorch 1.13 has no derivative of _ctc_loss_backward: the backward is a kernel of its own, not differentiable',
};

export function withAutogradClaims(info: OpInfo): OpInfo {
  const reason =
    NOT_DIFFERENTIABLE[info.name] ??
    (info.backwardDtypes.cpu.includes('float64') ? undefined : 'no float64 backward dtype');
  if (info.flags.supportsAutograd || reason === undefined) {
    const noGradgrad = NO_GRADGRAD[info.name];
    return {
      ...info,
      flags: {
        ...info.flags,
        supportsAutograd: true,
        supportsGradgrad: !noGradgrad,
        autogradReason: noGradgrad,
      },
    };
  }
  return {
    ...info,
    flags: { ...info.flags, supportsAutograd: false, supportsGradgrad: false, autogradReason: reason },
  };
}
