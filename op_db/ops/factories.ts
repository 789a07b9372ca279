/** (being written) */
import type { OpInfo } from '../types.ts';

export const FACTORY_OPINFOS: readonly OpInfo[] = [];
