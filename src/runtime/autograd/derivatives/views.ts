/** (being written) */
import type { Derivative } from '../derivative.ts';

export const VIEW_DERIVATIVES: Record<string, Derivative> = {};
