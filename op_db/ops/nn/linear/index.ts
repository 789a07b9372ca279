/**
 * OpInfos of linear and bilinear.
 */
export { NN_LINEAR_OPINFOS } from './linear.ts';
