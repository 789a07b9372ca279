/**
 * torch.nn.functional.linear and bilinear.
 */
export { type NN_LINEAR_API, registerNnLinear } from './linear.ts';
