export {
  type BotAction,
  type CloseFixedOptions,
  type CloseFixedReport,
  closeFixed,
  type FileIssuesOptions,
  type FileIssuesReport,
  fileIssues,
  type SyncReport,
  syncDisabled,
} from './bot.ts';
export {
  type DisabledEntry,
  disabledBy,
  disabledMessage,
  exportDisabled,
  listDisabled,
  readDisabled,
  replaceDisabled,
} from './disabled.ts';
export {
  DEFAULT_API_URL,
  type GitHubClient,
  type GitHubClientOptions,
  githubClient,
  parseRepo,
  type Repo,
} from './github.ts';
export { type FlakeStats, flakeStats, rerunEvidence, type Verdict } from './history.ts';
export { excerpt, issueText } from './issue_text.ts';
export {
  DEFAULT_DASHBOARD_URL,
  EXCERPT_LIMIT,
  type IssueRef,
  type IssueText,
  LABEL_MODULE,
  LABEL_SKIPPED,
  listOpenDisabled,
  REENABLE_LINE,
} from './issues_api.ts';
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
