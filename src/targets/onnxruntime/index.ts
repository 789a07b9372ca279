export { OPSET, ORT_PACKAGES, ortAdapter } from './adapter.ts';
export { ORT_DEPARTURES } from './departures.ts';
export { ORT_OPS } from './ops.ts';
