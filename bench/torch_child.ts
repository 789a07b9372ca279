/**
 * The PyTorch child of `npm run bench:torch`: bench/torch_cases.py as a long-lived process, one JSON request line
 * in, one reply line out (protocol in bench/torch_side.ts). `startTorch` resolves to null, with the reason, where
 * the interpreter or its torch is missing.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { encodeRequest, parseReply, type Reply, type Settings } from './torch_side.ts';

const SCRIPT = join(import.meta.dirname, 'torch_cases.py');

/** OPGATE_TORCH_PYTHON, else Debian's interpreter (which has torch), else whatever python3 is on PATH. */
export const defaultPython = (): string =>
  process.env.OPGATE_TORCH_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

export interface TorchChild {
  readonly version: string;
  readonly threads: number;
  run(id: string, round: number, s: Settings): Promise<{ batch: number; samples: readonly number[] }>;
  close(): Promise<void>;
}

export type Started = { ok: true; child: TorchChild } | { ok: false; reason: string };

export async function startTorch(python: string, helloTimeoutMs = 120_000): Promise<Started> {
  let proc: ChildProcessWithoutNullStreams;
  try {
    proc = spawn(python, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    return { ok: false, reason: `${python}: ${(e as Error).message}` };
  }
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const waiting: ((r: Reply | Error) => void)[] = [];
  let ended: Error | null = null;
  const fail = (e: Error) => {
    ended ??= e;
    for (const w of waiting.splice(0)) w(e);
  };
  createInterface({ input: proc.stdout }).on('line', (line) => {
    if (!line.trim()) return;
    let reply: Reply | Error;
    try {
      reply = parseReply(line);
    } catch (e) {
      reply = e as Error;
    }
    const w = waiting.shift();
    if (w) w(reply);
  });
  proc.on('error', (e) => fail(new Error(`${python}: ${e.message}`)));
  // 'close', not 'exit': it comes after stdout's last line was read, so a child that prints its reason and exits
  // ('torch not importable') is not reported as a bare exit under load.
  proc.on('close', (code) =>
    fail(new Error(`torch child exited (code ${code})${stderr ? `: ${stderr.trim().slice(-500)}` : ''}`)),
  );
  const next = (timeoutMs?: number) =>
    new Promise<Reply>((resolve, reject) => {
      if (ended) return reject(ended);
      const timer = timeoutMs
        ? setTimeout(() => reject(new Error(`torch child: no reply in ${timeoutMs} ms`)), timeoutMs)
        : undefined;
      waiting.push((r) => {
        clearTimeout(timer);
        r instanceof Error ? reject(r) : resolve(r);
      });
    });

  let hello: Reply;
  try {
    hello = await next(helloTimeoutMs);
  } catch (e) {
    proc.kill();
    return { ok: false, reason: (e as Error).message };
  }
  if (hello.kind !== 'hello') {
    proc.kill();
    return { ok: false, reason: hello.kind === 'error' ? hello.message : 'unexpected first reply' };
  }
  const child: TorchChild = {
    version: hello.version,
    threads: hello.threads,
    async run(id, round, s) {
      const reply = next();
      proc.stdin.write(
        encodeRequest({ op: 'run', case: id, round, samples: s.samples, minSampleMs: s.minSampleMs }),
      );
      const r = await reply;
      if (r.kind === 'error') throw new Error(`torch child, case ${id}: ${r.message}`);
      if (r.kind !== 'samples' || r.case !== id || r.round !== round)
        throw new Error(`torch child: reply out of step (asked ${id} round ${round})`);
      return { batch: r.batch, samples: r.samples };
    },
    async close() {
      if (ended) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.stdin.end(encodeRequest({ op: 'quit' }));
      await exited;
    },
  };
  return { ok: true, child };
}
