/**
 * The GitHub client of the flaky-test bot: octokit (its retry plugin retries 5xx replies, its throttling plugin
 * paces requests and retries after primary and secondary rate limits, honoring `retry-after`).
 *
 * The token comes from the environment only (`GITHUB_TOKEN`); it is never printed, logged or stored: every line
 * this module emits passes through `redact`, and the client keeps the token out of its own properties. The
 * API base URL comes from `GITHUB_API_URL` (what GitHub Actions sets; tests point it at a local fake server).
 */
import { Octokit, RequestError } from 'octokit';
import { CiError } from '../errors.ts';

export const DEFAULT_API_URL = 'https://api.github.com';

export interface GitHubClient {
  readonly octokit: Octokit;
  readonly baseUrl: string;
  /** Whether requests carry a token (writes need one). */
  readonly authenticated: boolean;
  /** The backoff unit of retries (ms). */
  readonly retryBaseMs: number;
  /** `text` with the token (if any) replaced by `***`. */
  redact(text: string): string;
  /** A one-line description of an error, token redacted. */
  describe(error: unknown): string;
}

export interface GitHubClientOptions {
  readonly baseUrl?: string;
  /** Programmatic callers only; the CLI never takes a token on the command line. Default: `GITHUB_TOKEN`. */
  readonly token?: string;
  /** Fail now when there is no token (commands that write). */
  readonly requireToken?: boolean;
  /** The environment to read (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Where warnings go (default stderr); lines are redacted first. */
  readonly log?: (line: string) => void;
  /** Retries of a 5xx reply (retry plugin; default 3) and its backoff unit (default 1000 ms: waits 1, 4, 9 units). */
  readonly retries?: number;
  readonly retryBaseMs?: number;
  /** Retries after a rate-limit reply (default 3); longer waits than `maxRetryAfterS` are not waited for. */
  readonly rateLimitRetries?: number;
  readonly maxRetryAfterS?: number;
  /** How long one `retry-after` second lasts (default 1000 ms; tests may shorten it). */
  readonly retryAfterBaseMs?: number;
  /**
   * Pace writes and searches as GitHub asks (one write a second, one search per two seconds; the throttling
   * plugin's defaults). Default: on, except for a loopback base URL (a local fake server).
   */
  readonly pace?: boolean;
}

const isLoopback = (url: string): boolean => {
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** A Bottleneck.Group stand-in that runs every job at once (no pacing). */
const unpaced = {
  key: () => ({
    schedule: (_opts: unknown, fn: (...a: unknown[]) => unknown, ...args: unknown[]) =>
      Promise.resolve().then(() => fn(...args)),
  }),
};

export function githubClient(opts: GitHubClientOptions = {}): GitHubClient {
  const env = opts.env ?? process.env;
  const token = opts.token ?? (env.GITHUB_TOKEN || undefined);
  const baseUrl = (opts.baseUrl ?? (env.GITHUB_API_URL || DEFAULT_API_URL)).replace(/\/+$/, '');
  if (opts.requireToken && !token)
    throw new CiError(
      'E_GITHUB_TOKEN_MISSING',
      'GITHUB_TOKEN is not set: this command writes to GitHub and needs a token',
    );
  const redact = (text: string): string =>
    token && token.length >= 4 ? text.split(token).join('***') : text;
  const sink = opts.log ?? ((line: string) => console.error(line));
  const log = (line: string) => sink(redact(line));
  const rateLimitRetries = opts.rateLimitRetries ?? 3;
  const maxRetryAfterS = opts.maxRetryAfterS ?? 15 * 60;
  const onLimit =
    (what: string) =>
    (retryAfter: number, options: { method: string; url: string }, _o: unknown, retryCount: number) => {
      if (retryCount < rateLimitRetries && retryAfter <= maxRetryAfterS) {
        log(`github: ${what} on ${options.method} ${options.url}; retrying after ${retryAfter} s`);
        return true;
      }
      log(`github: ${what} on ${options.method} ${options.url}; giving up`);
      return false;
    };
  const retryBaseMs = opts.retryBaseMs ?? 1000;
  const pace = opts.pace ?? !isLoopback(baseUrl);
  const octokit = new Octokit({
    baseUrl,
    ...(token ? { auth: token } : {}),
    userAgent: 'opgate-flaky-bot',
    log: {
      debug: () => {},
      info: () => {},
      warn: (m: string) => log(`github: ${m}`),
      error: (m: string) => log(`github: ${m}`),
    },
    retry: { retries: opts.retries ?? 3, retryAfterBaseValue: retryBaseMs },
    throttle: {
      onRateLimit: onLimit('rate limit'),
      onSecondaryRateLimit: onLimit('secondary rate limit'),
      retryAfterBaseValue: opts.retryAfterBaseMs ?? 1000,
      fallbackSecondaryRateRetryAfter: 60,
      // Bottleneck groups are duck-typed by the plugin; these run jobs unpaced.
      ...(pace ? {} : ({ write: unpaced, search: unpaced, notifications: unpaced } as object)),
    },
  });
  const describe = (e: unknown): string => {
    // Octokit reports a request that got no reply (DNS failure, refused connection) as status 500 without a
    // response; saying "GitHub 500" would blame GitHub for a network that never reached it.
    if (e instanceof RequestError && e.response === undefined)
      return redact(
        `GitHub unreachable on ${e.request.method} ${e.request.url}: ${firstLine(e.message)} (no HTTP response; check the network and GITHUB_API_URL)`,
      );
    if (e instanceof RequestError)
      return redact(`GitHub ${e.status} on ${e.request.method} ${e.request.url}: ${firstLine(e.message)}`);
    return redact(e instanceof Error ? e.message : String(e));
  };
  return { octokit, baseUrl, authenticated: token !== undefined, retryBaseMs, redact, describe };
}

const firstLine = (s: string) => s.split('\n')[0].slice(0, 300);

export interface Repo {
  readonly owner: string;
  readonly repo: string;
}

/** `owner/name` from `--repo` or `GITHUB_REPOSITORY`. */
export function parseRepo(value: string | undefined, env: NodeJS.ProcessEnv = process.env): Repo {
  const v = value ?? env.GITHUB_REPOSITORY;
  if (!v)
    throw new CiError('E_INVALID_ARGUMENT', 'no repository: pass --repo owner/name or set GITHUB_REPOSITORY');
  const m = /^([\w.-]+)\/([\w.-]+)$/.exec(v.trim());
  if (!m) throw new CiError('E_INVALID_ARGUMENT', `--repo: not an owner/name repository: ${v}`);
  return { owner: m[1], repo: m[2] };
}

/** Whether an error leaves it unknown if a write happened (a 5xx reply or no reply at all). */
export const isUncertain = (e: unknown): boolean =>
  !(e instanceof RequestError) || e.status >= 500 || e.status === 0;
