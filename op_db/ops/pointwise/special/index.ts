/** OpInfos of the special functions. */
export { SPECIAL_OPINFOS } from './special.ts';
