/**
 * Resampling: the upsample ops and F.interpolate, grid_sample, pixel_shuffle / pixel_unshuffle.
 */
export { type GRID_SAMPLE_API, registerGridSample } from './grid_sample.ts';
export { registerInterpolate } from './interpolate.ts';
export { type PIXEL_SHUFFLE_API, registerPixelShuffle } from './pixel_shuffle.ts';
export { registerUpsampleOps } from './upsample.ts';
