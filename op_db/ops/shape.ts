/** (being written) */
import type { OpInfo } from '../types.ts';

export const SHAPE_OPINFOS: readonly OpInfo[] = [];
