export {
  type CompileBackend,
  type CompileCounters,
  type CompiledFunction,
  type CompileOptions,
  compile,
  compileCounters,
  type EntryInfo,
} from './compile.ts';
export { type Explanation, explain } from './explain.ts';
export { type FusedGroup, fusionHooks, type Operand, type Step } from './fuse.ts';
export { formatGraph, type Graph, type GraphNode, type Value } from './graph.ts';
export { stridePattern } from './guards.ts';
export { readDuringTrace } from './tracer.ts';
