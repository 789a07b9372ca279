/**
 * Helpers for tests that run `opgate run` as a child process and stop it (kill -9, SIGINT): the child logs each
 * reported instance (OPGATE_LOG_RESULTS=1) before committing it, which is the record the store is compared with.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ResultsReader } from '../../src/ci/store/reader.ts';
import type { ResultRow } from '../../src/ci/store/store.ts';

export const bin = join(import.meta.dirname, '../../bin/opgate.mjs');

export interface RunChild {
  readonly proc: ChildProcess;
  /** id -> when the child reported it (its clock, epoch ms). */
  readonly logged: Map<string, number>;
  /** stderr lines other than the result log. */
  readonly messages: string[];
  stdout: string;
  /** Resolves when the child has reported at least n instances, or has exited. */
  reported(n: number): Promise<void>;
  /** Resolves when stderr has a line containing `text`, or the child has exited. */
  said(text: string): Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnRun(args: readonly string[], env: NodeJS.ProcessEnv = {}): RunChild {
  const proc = spawn('node', [bin, 'run', ...args], {
    env: { ...process.env, OPGATE_LOG_RESULTS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  const child: RunChild = {
    proc,
    logged: new Map(),
    messages: [],
    stdout: '',
    reported: (n) => until(() => child.logged.size >= n),
    said: (text) => until(() => child.messages.some((m) => m.includes(text))),
    exited: new Promise((resolve) =>
      proc.on('close', (code, signal) => {
        done = true;
        wake();
        resolve({ code, signal });
      }),
    ),
  };
  let done = false;
  const until = (ok: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (ok() || done ? resolve() : waiters.push(check));
      check();
    });
  let partial = '';
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const m = /^opgate-result (\d+) \w+ (\S+)$/.exec(line);
      if (m) child.logged.set(m[2], Number(m[1]));
      else child.messages.push(line);
    }
    wake();
  });
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    child.stdout += chunk;
  });
  return child;
}

/** Polls the database (read-only) until it has a run that is running. */
export async function runRowExists(db: string, child: RunChild): Promise<void> {
  for (;;) {
    if (child.proc.exitCode !== null) return;
    if (existsSync(db)) {
      let d: ResultsReader | null = null;
      try {
        d = new ResultsReader(db);
        if (d.runs().some((r) => r.status === 'running')) return;
      } catch {
        // Not migrated yet.
      } finally {
        d?.close();
      }
    }
    await sleep(50);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The ids a run has results for. */
export function storedIds(db: string, runId: number): Set<string> {
  const d = new ResultsReader(db);
  try {
    return new Set(d.results(runId).map((r) => r.id));
  } finally {
    d.close();
  }
}

/** `opgate <args>` (or `script <args>`) as a child process, concurrently with others (each takes seconds to start). */
export function opgate(
  args: readonly string[],
  o: { cwd?: string; env?: NodeJS.ProcessEnv; script?: string; uid?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn('node', [o.script ?? bin, ...args], {
      cwd: o.cwd,
      env: { ...process.env, ...o.env },
      // Another user (a file opgate may not write, even when the tests run as root).
      ...(o.uid === undefined ? {} : { uid: o.uid, gid: o.uid }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    p.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Many command lines in one node process (tests/unit/cli_batch.mjs: the same bin/main.mjs bin/opgate.mjs runs), for
 * tests about what a command reports rather than about the process boundary: one start-up instead of one each.
 */
export async function opgateBatch(
  cases: readonly { args: readonly string[]; cwd: string }[],
  o: { env?: NodeJS.ProcessEnv; uid?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }[]> {
  const r = await opgate([JSON.stringify(cases)], {
    ...o,
    script: join(import.meta.dirname, 'cli_batch.mjs'),
  });
  if (r.code !== 0) throw new Error(`cli_batch.mjs exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A pid that belonged to a process that has exited (its run reads aborted). */
export function deadPid(): number {
  const r = spawnSync('node', ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

/** The id of a reference instance of op `name` (float32, contiguous, eager): what `passRow` makes consistent. */
export const refId = (name: string, device = 'cpu'): string =>
  `test_reference_${name}_${device}_float32_contiguous_eager`;

/**
 * A passing result row (store-level tests that need rows, not a real run); for an id made by `refId` its op
 * matches it, as merge's row checks require.
 */
export const passRow = (id: string, device = 'cpu'): ResultRow => ({
  id,
  op: new RegExp(`^test_reference_(.+)_${device}_float32_contiguous_eager$`).exec(id)?.[1] ?? 'add',
  oracle: 'reference',
  device,
  dtype: 'float32',
  layout: 'contiguous',
  mode: 'eager',
  status: 'pass',
  durationMs: 1,
  attempts: 1,
  message: null,
  sample: null,
  seed: 1,
  checks: 1,
});
