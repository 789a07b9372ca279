/** (being written) where, clamp */
import type { PointwiseRow } from './row.ts';

export const TERNARY_ROWS: readonly PointwiseRow[] = [];
