export { TFJS_PACKAGES, tfjsAdapter } from './adapter.ts';
export { TFJS_DEPARTURES } from './departures.ts';
export { TFJS_OPS } from './ops.ts';
