export { type BackwardOptions, backward, type GradOptions, grad, installAutogradMethods } from './api.ts';
export type { Derivative, Formula, GradContext } from './derivative.ts';
export { arg, binaryGrad, type NonDifferentiable, unaryGrad, zeroGrad } from './derivative_rows.ts';
export { gradOps } from './grad_helpers.ts';
export {
  enableGrad,
  inferenceMode,
  isGradEnabled,
  isInferenceMode,
  noGrad,
  setGradEnabled,
} from './grad_mode.ts';
export { AccumulateGrad, Node } from './node.ts';
export { autogradKernel } from './record.ts';
export {
  DECOMPOSED,
  DERIVATIVES,
  defineDerivative,
  NONDIFFERENTIABLE,
  opsWithoutDerivative,
  registerAutograd,
  setAutogradKernel,
} from './register.ts';
