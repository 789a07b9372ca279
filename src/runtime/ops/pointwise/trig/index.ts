/** Trigonometric and hyperbolic functions. */
export { TRIG_ROWS } from './trig.ts';
