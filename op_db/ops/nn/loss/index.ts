/**
 * OpInfos of the losses.
 */
export { NN_LOSS_ATEN_OPINFOS } from './aten.ts';
export { NN_LOSS_CLASS_OPINFOS } from './class.ts';
export { NN_CTC_LOSS_OPINFOS } from './ctc.ts';
export { NN_CTC_LOSS_BACKWARD_OPINFOS } from './ctc_backward.ts';
export { NN_LOSS_MARGIN_OPINFOS } from './margin.ts';
export { NN_LOSS_MARGIN_KERNEL_OPINFOS } from './margin_kernels.ts';
export { NN_LOSS_REGRESSION_OPINFOS } from './regression.ts';
