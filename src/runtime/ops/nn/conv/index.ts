/**
 * Convolution and its sliding-block kin: aten's convolution (im2col + gemm on cpu), conv1d/2d/3d and the transposed
 * forms, its derivative, im2col / col2im (F.unfold / F.fold).
 */
export { type NN_CONV_API, registerNnConv } from './conv.ts';
export { registerUnfold } from './unfold.ts';
