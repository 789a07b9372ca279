/** OpInfos of rounding. */
export { ROUNDING_OPINFOS } from './rounding.ts';
