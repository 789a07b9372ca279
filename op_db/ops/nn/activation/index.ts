/**
 * OpInfos of torch.nn.functional's activations.
 */
export { NN_ACTIVATION_OPINFOS } from './activations.ts';
export { ACTIVATION_OPINFOS } from './pointwise.ts';
