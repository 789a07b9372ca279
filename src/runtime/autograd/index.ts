export { type BackwardOptions, backward, type GradOptions, grad, installAutogradMethods } from './api.ts';
export type { Derivative, Formula, GradContext } from './derivative.ts';
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
  NONDIFFERENTIABLE,
  opsWithoutDerivative,
  registerAutograd,
} from './register.ts';
