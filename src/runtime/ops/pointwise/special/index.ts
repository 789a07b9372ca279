/** Special functions (torch.special). */
export { SPECIAL_ROWS } from './special.ts';
