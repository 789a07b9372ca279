/** (being written) */
import type { OpInfo } from '../types.ts';

export const REDUCTION_OPINFOS: readonly OpInfo[] = [];
