export { JAX_PACKAGES, jaxAdapter } from './adapter.ts';
export { JAX_DEPARTURES } from './departures.ts';
export { JAX_OPS } from './ops.ts';
