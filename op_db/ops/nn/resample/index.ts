/**
 * OpInfos of the upsample ops, F.interpolate, grid_sample and pixel_shuffle.
 */
export { NN_GRID_SAMPLE_OPINFOS } from './grid_sample.ts';
export { NN_RESAMPLE_OPINFOS } from './interpolate.ts';
export { NN_PIXEL_SHUFFLE_OPINFOS } from './pixel_shuffle.ts';
export { NN_RESAMPLE_ATEN_OPINFOS } from './upsample.ts';
