/** OpInfos of the trigonometric functions. */
export { TRIG_OPINFOS } from './trig.ts';
