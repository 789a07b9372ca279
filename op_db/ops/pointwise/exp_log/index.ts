/** OpInfos of exponentials, logarithms, roots and pow. */
export { EXP_LOG_OPINFOS } from './exp_log.ts';
