/**
 * Padding: constant_pad_nd, reflection / replication / circular pads, their checks and derivative.
 */
export { type PAD_API, registerPad } from './pad.ts';
