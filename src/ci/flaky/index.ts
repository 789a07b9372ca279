export {
  type DisabledEntry,
  disabledBy,
  exportDisabled,
  listDisabled,
  readDisabled,
  replaceDisabled,
} from './disabled.ts';
export { type FlakeStats, flakeStats, rerunEvidence, type Verdict } from './history.ts';
export {
  currentPlatform,
  disables,
  type KeyKind,
  keyOfTitle,
  kindOfKey,
  opKeyOf,
  platformsOfBody,
  TITLE_PREFIX,
} from './scope.ts';
