export { callOnTarget, unmappedReason } from './call.ts';
export { hostOf, tensorOf } from './host.ts';
export {
  isTargetName,
  type LoadedTarget,
  loadTarget,
  registerTarget,
  selectedTargets,
  targetNames,
  targetOf,
} from './registry.ts';
export { type TargetRule, targetRule } from './rules.ts';
export {
  type BoundTargetArgs,
  type Departure,
  type HostTensor,
  isMapped,
  KnownBug,
  type MappedOp,
  NotExpressible,
  type OpRow,
  type Target,
  type TargetAdapter,
  type TargetArg,
  TargetError,
  type UnmappedOp,
} from './target.ts';
