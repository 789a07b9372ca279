/** OpInfos of the logical and bitwise ops. */
export { BITWISE_OPINFOS } from './bitwise.ts';
