/**
 * Tensor creation: the factories (empty, zeros, ones, full, eye, the *_like forms, arange, linspace, logspace),
 * fill_, and the range writer randperm shares.
 */
export { type FACTORY_API, fillTensor, registerFactories } from './factories.ts';
export { writeSequence } from './sequence_write.ts';
