/**
 * Random ops: uniform_ (the one op that draws) and the ops written over it.
 */
export { type RANDOM_API, registerRandom } from './random.ts';
