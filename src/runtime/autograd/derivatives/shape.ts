/** (being written) */
import type { Derivative } from '../derivative.ts';

export const SHAPE_DERIVATIVES: Record<string, Derivative> = {};
