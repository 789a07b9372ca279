/** A child process run to completion, with stdout split into lines and a watchdog on progress. */
import { spawn } from 'node:child_process';

export interface ProcResult {
  readonly lines: string[];
  readonly timedOut: boolean;
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs a process; `idleMs` without a stdout line (or `totalMs` overall) kills it. `onLine` sees each as it comes. */
export function runProcess(
  cmd: string,
  args: string[],
  cwd: string,
  idleMs: number,
  totalMs: number,
  onLine?: (line: string) => void,
): Promise<ProcResult> {
  return new Promise((done) => {
    const child = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, EGL_PLATFORM: process.env.EGL_PLATFORM ?? 'surfaceless', FORCE_COLOR: '0' },
    });
    const lines: string[] = [];
    let buf = '';
    let stderr = '';
    let timedOut = false;
    const kill = () => {
      timedOut = true;
      child.kill('SIGKILL');
    };
    let idle = setTimeout(kill, idleMs);
    const total = setTimeout(kill, totalMs);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      lines.push(...parts);
      if (onLine) for (const l of parts) onLine(l);
      clearTimeout(idle);
      idle = setTimeout(kill, idleMs);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 20_000) stderr += d.toString();
    });
    child.on('close', (code) => {
      clearTimeout(idle);
      clearTimeout(total);
      if (buf) lines.push(buf);
      done({ lines, timedOut, code, stderr });
    });
  });
}
