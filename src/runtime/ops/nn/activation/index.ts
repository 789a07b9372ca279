/**
 * torch.nn.functional's activations: the pointwise ones as table rows, glu, prelu and the Python-only functions.
 */
export { type NN_ACTIVATION_API, registerNnActivations } from './activations.ts';
export { ACTIVATION_ROWS } from './pointwise.ts';
