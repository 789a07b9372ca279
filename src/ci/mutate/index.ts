/** Mutation testing of the runtime (`opgate mutate`): the operator catalogue, mutants, and the engine. */
export { type MutationOperator, OPERATORS, type Site } from './catalogue.ts';
export { changedLines } from './changed.ts';
export { type MutateOptions, runMutants } from './engine.ts';
export { EQUIVALENTS, type Equivalent, equivalenceOf } from './equivalents.ts';
export { generateMutants, MUTATED_ROOTS, type Mutant, mutantsOfText, sampleMutants } from './generate.ts';
export { NAMED_MUTANTS, type NamedMutant, resolveNamed } from './named.ts';
export { buildReachMap, ReachMap, type ReachMapData, saveReachMap, treeHash } from './reach.ts';
