/** (being written) */
import type { OpInfo } from '../types.ts';

export const VIEW_OPINFOS: readonly OpInfo[] = [];
