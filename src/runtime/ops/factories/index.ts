/**
 * Tensor creation: the factories (empty, zeros, ones, full, eye, the *_like forms, arange, linspace),
 * fill_, and the range writer randperm shares.
 */
export { fillTensor } from './create.ts';
export { type FACTORY_API, registerFactories } from './factories.ts';
export { writeSequence } from './sequence_write.ts';
