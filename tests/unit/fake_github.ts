/**
 * A local HTTP server speaking the subset of GitHub's REST API the flaky-test bot uses: issue search, list
 * (state, labels, sort, per_page/page with a `Link` header), get, create, update (state, title, body,
 * labels), comments (create, list) and labels (add). Faults can be injected: the next N matching requests
 * get a 403 secondary-rate-limit reply (with `retry-after`), a 403 primary rate limit, or a 502 (before or
 * after the write happens). Every request is recorded. Any `token ...`/`Bearer ...` authorization is
 * accepted; writes without one get a 401.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  readonly id: number;
  readonly body: string;
  readonly createdAt: string;
}

export interface FakeIssue {
  readonly repo: string;
  readonly number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  stateReason: string | null;
  labels: string[];
  comments: FakeComment[];
  readonly createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  readonly pullRequest: boolean;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: unknown;
  readonly authorized: boolean;
  /** The status the server answered. */
  status: number;
}

/** Which requests a fault applies to: method, path and query string. */
export type Matcher = (method: string, path: string, query: URLSearchParams) => boolean;

export type FaultKind = 'secondary-rate-limit' | 'rate-limit' | '502' | '502-after-write';

interface Fault {
  kind: FaultKind;
  left: number;
  match: Matcher;
  retryAfter: number;
}

/** GitHub's timestamps have one-second resolution. */
const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class FakeGitHub {
  readonly issues: FakeIssue[] = [];
  readonly requests: RecordedRequest[] = [];
  private readonly faults: Fault[] = [];
  private server: Server | null = null;
  private nextComment = 1;
  baseUrl = '';
  /** The server's clock (ms); tests may move it. */
  now = () => Date.now();

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e) => this.send(res, 500, { message: String(e) }));
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = null;
  }

  /** The next `n` requests matching (default: all) get this fault. */
  failNext(n: number, kind: FaultKind, match: Matcher = () => true, retryAfter = 1): void {
    this.faults.push({ kind, left: n, match, retryAfter });
  }

  /** An issue made as a person would (no request recorded). */
  addIssue(
    repo: string,
    i: { title: string; body?: string; labels?: string[]; state?: 'open' | 'closed'; pullRequest?: boolean },
  ): FakeIssue {
    const t = stamp(this.now());
    const issue: FakeIssue = {
      repo,
      number: this.issues.filter((x) => x.repo === repo).length + 1,
      title: i.title,
      body: i.body ?? '',
      state: i.state ?? 'open',
      stateReason: null,
      labels: [...(i.labels ?? [])],
      comments: [],
      createdAt: t,
      updatedAt: t,
      closedAt: i.state === 'closed' ? t : null,
      pullRequest: i.pullRequest ?? false,
    };
    this.issues.push(issue);
    return issue;
  }

  /** A person closes (or reopens) an issue. */
  setState(repo: string, number: number, state: 'open' | 'closed'): void {
    const i = this.issue(repo, number);
    if (!i) throw new Error(`no issue ${repo}#${number}`);
    i.state = state;
    i.closedAt = state === 'closed' ? stamp(this.now()) : null;
    i.updatedAt = stamp(this.now());
  }

  issue(repo: string, number: number): FakeIssue | undefined {
    return this.issues.find((i) => i.repo === repo && i.number === number);
  }

  /** Recorded requests that write (anything but GET/HEAD). */
  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
  }

  private json(i: FakeIssue) {
    return {
      id: 1_000_000 + this.issues.indexOf(i),
      number: i.number,
      title: i.title,
      body: i.body,
      state: i.state,
      state_reason: i.stateReason,
      labels: i.labels.map((name, k) => ({ id: k + 1, name })),
      comments: i.comments.length,
      created_at: i.createdAt,
      updated_at: i.updatedAt,
      closed_at: i.closedAt,
      user: { login: 'someone' },
      url: `${this.baseUrl}/repos/${i.repo}/issues/${i.number}`,
      html_url: `https://github.test/${i.repo}/issues/${i.number}`,
      ...(i.pullRequest
        ? { pull_request: { url: `${this.baseUrl}/repos/${i.repo}/pulls/${i.number}` } }
        : {}),
    };
  }

  private send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const last = this.requests.at(-1);
    if (last) last.status = status;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/html' : 'application/json; charset=utf-8',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      ...headers,
    });
    res.end(text);
  }

  /** Pagination: the page of `items` and a Link header (rel="next", rel="last"). */
  private page<T>(url: URL, items: T[]): { items: T[]; headers: Record<string, string> } {
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30)));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (p: number, rel: string) => {
      const u = new URL(url.pathname + url.search, this.baseUrl);
      u.searchParams.set('page', String(p));
      u.searchParams.set('per_page', String(perPage));
      return `<${u.toString()}>; rel="${rel}"`;
    };
    const rels = [...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : [])];
    return {
      items: items.slice((page - 1) * perPage, page * perPage),
      headers: rels.length ? { link: rels.join(', ') } : {},
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const method = req.method ?? 'GET';
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return this.send(res, 400, { message: 'Problems parsing JSON' });
      }
    }
    const auth = req.headers.authorization ?? '';
    const authorized = /^(token|bearer)\s+\S+/i.test(auth);
    this.requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      authorized,
      status: 0,
    });
    if (auth && !authorized) return this.send(res, 401, { message: 'Bad credentials' });
    if (method !== 'GET' && !authorized) return this.send(res, 401, { message: 'Requires authentication' });

    const fault = this.faults.find((f) => f.left > 0 && f.match(method, url.pathname, url.searchParams));
    if (fault) {
      fault.left--;
      if (fault.kind === 'secondary-rate-limit')
        return this.send(
          res,
          403,
          {
            message:
              'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
            documentation_url:
              'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
          },
          { 'retry-after': String(fault.retryAfter) },
        );
      if (fault.kind === 'rate-limit')
        return this.send(
          res,
          403,
          { message: 'API rate limit exceeded for user.' },
          {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + fault.retryAfter),
          },
        );
      if (fault.kind === '502') return this.send(res, 502, '<html><body>502 Bad Gateway</body></html>');
    }
    const reply = this.route(method, url, body as Record<string, unknown> | null);
    if (fault?.kind === '502-after-write')
      return this.send(res, 502, '<html><body>502 Bad Gateway</body></html>');
    this.send(res, reply.status, reply.body, reply.headers);
  }

  private route(
    method: string,
    url: URL,
    body: Record<string, unknown> | null,
  ): { status: number; body: unknown; headers?: Record<string, string> } {
    const p = url.pathname;
    const notFound = { status: 404, body: { message: 'Not Found' } };
    if (method === 'GET' && p === '/search/issues') {
      const q = url.searchParams.get('q') ?? '';
      const hits = this.search(q);
      const { items, headers } = this.page(url, hits);
      return {
        status: 200,
        body: { total_count: hits.length, incomplete_results: false, items: items.map((i) => this.json(i)) },
        headers,
      };
    }
    const m = /^\/repos\/([^/]+)\/([^/]+)\/issues(?:\/(\d+)(?:\/(comments|labels))?)?$/.exec(p);
    if (!m) return notFound;
    const repo = `${m[1]}/${m[2]}`;
    const number = m[3] === undefined ? null : Number(m[3]);
    const sub = m[4];
    const t = stamp(this.now());
    if (number === null) {
      if (method === 'GET') {
        const state = url.searchParams.get('state') ?? 'open';
        const labels = (url.searchParams.get('labels') ?? '').split(',').filter(Boolean);
        let list = this.issues.filter(
          (i) =>
            i.repo === repo &&
            (state === 'all' || i.state === state) &&
            labels.every((l) => i.labels.includes(l)),
        );
        const sort = url.searchParams.get('sort') ?? 'created';
        const asc = url.searchParams.get('direction') === 'asc';
        const by = sort === 'updated' ? (i: FakeIssue) => i.updatedAt : (i: FakeIssue) => i.createdAt;
        list = [...list].sort((a, b) => {
          const c = by(a) < by(b) ? -1 : by(a) > by(b) ? 1 : a.number - b.number;
          return asc ? c : -c;
        });
        const { items, headers } = this.page(url, list);
        return { status: 200, body: items.map((i) => this.json(i)), headers };
      }
      if (method === 'POST') {
        if (!body || typeof body.title !== 'string' || !body.title)
          return { status: 422, body: { message: 'Validation Failed' } };
        const issue = this.addIssue(repo, {
          title: body.title,
          body: typeof body.body === 'string' ? body.body : '',
          labels: Array.isArray(body.labels) ? body.labels.map(String) : [],
        });
        return { status: 201, body: this.json(issue) };
      }
      return notFound;
    }
    const issue = this.issue(repo, number);
    if (!issue) return notFound;
    if (!sub) {
      if (method === 'GET') return { status: 200, body: this.json(issue) };
      if (method === 'PATCH') {
        const b = body ?? {};
        if (typeof b.title === 'string') issue.title = b.title;
        if (typeof b.body === 'string') issue.body = b.body;
        if (Array.isArray(b.labels)) issue.labels = b.labels.map(String);
        if (b.state === 'open' || b.state === 'closed') {
          issue.state = b.state;
          issue.closedAt = b.state === 'closed' ? t : null;
          issue.stateReason = b.state === 'closed' ? String(b.state_reason ?? 'completed') : 'reopened';
        }
        issue.updatedAt = t;
        return { status: 200, body: this.json(issue) };
      }
      return notFound;
    }
    if (sub === 'comments') {
      if (method === 'GET') {
        const { items, headers } = this.page(url, issue.comments);
        return {
          status: 200,
          body: items.map((c) => ({ id: c.id, body: c.body, created_at: c.createdAt })),
          headers,
        };
      }
      if (method === 'POST') {
        if (!body || typeof body.body !== 'string')
          return { status: 422, body: { message: 'Validation Failed' } };
        const c = { id: this.nextComment++, body: body.body, createdAt: t };
        issue.comments.push(c);
        issue.updatedAt = t;
        return {
          status: 201,
          body: {
            id: c.id,
            body: c.body,
            created_at: t,
            html_url: `https://github.test/${repo}/issues/${number}#c${c.id}`,
          },
        };
      }
      return notFound;
    }
    if (sub === 'labels' && method === 'POST') {
      const add = Array.isArray(body?.labels) ? (body.labels as unknown[]).map(String) : [];
      issue.labels = [...new Set([...issue.labels, ...add])];
      issue.updatedAt = t;
      return { status: 200, body: issue.labels.map((name, k) => ({ id: k + 1, name })) };
    }
    return notFound;
  }

  /** Enough of GitHub's issue search: repo:, is:issue/is:pr, is:open/is:closed, state:, in:title, phrases, words. */
  private search(q: string): FakeIssue[] {
    const tokens = [...q.matchAll(/"([^"]*)"|(\S+)/g)].map((m) =>
      m[1] !== undefined ? { phrase: m[1] } : { word: m[2] },
    );
    let repo: string | null = null;
    let state: string | null = null;
    let kind: 'issue' | 'pr' | null = null;
    const terms: string[] = [];
    for (const t of tokens) {
      if ('phrase' in t && t.phrase !== undefined) terms.push(t.phrase.toLowerCase());
      else if (t.word?.startsWith('repo:')) repo = t.word.slice(5);
      else if (t.word === 'is:open' || t.word === 'state:open') state = 'open';
      else if (t.word === 'is:closed' || t.word === 'state:closed') state = 'closed';
      else if (t.word === 'is:issue' || t.word === 'type:issue') kind = 'issue';
      else if (t.word === 'is:pr' || t.word === 'type:pr') kind = 'pr';
      else if (t.word?.startsWith('in:')) {
        // only titles are searched
      } else if (t.word) terms.push(t.word.toLowerCase());
    }
    return this.issues
      .filter(
        (i) =>
          (repo === null || i.repo === repo) &&
          (state === null || i.state === state) &&
          (kind === null || (kind === 'pr') === i.pullRequest) &&
          terms.every((term) => i.title.toLowerCase().includes(term)),
      )
      .sort((a, b) => b.number - a.number);
  }
}
