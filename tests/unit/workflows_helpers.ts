/**
 * The GitHub Actions workflows as data, shared by the workflows*.test.ts files (not a test file itself): each
 * .github/workflows/*.yml parsed, every `run:` step expanded over its job's matrix and split into commands,
 * the `npx opgate` calls among them, and the CLI's own `--help` (loaded on demand) to check them against.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

export const ROOT = resolve(import.meta.dirname, '../..');
export const WORKFLOWS = join(ROOT, '.github/workflows');
const BIN = join(ROOT, 'bin/opgate.mjs');
export const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
/** Shell utilities a step may use around the project's own commands (plumbing into $GITHUB_STEP_SUMMARY). */
export const SHELL_UTILITIES = new Set(['cat', 'echo']);

export interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
export interface Job {
  name?: string;
  'runs-on'?: string;
  'timeout-minutes'?: number;
  needs?: string | string[];
  if?: string;
  outputs?: Record<string, string>;
  strategy?: { 'fail-fast'?: boolean; matrix?: Record<string, unknown> };
  steps?: Step[];
}
export interface Workflow {
  name?: string;
  on?: Record<string, unknown> | string | string[];
  jobs?: Record<string, Job>;
}
export type Combo = Record<string, string>;

export const files = readdirSync(WORKFLOWS)
  .filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'))
  .sort();
export const workflows = new Map<string, Workflow>(
  files.map((f) => [f, parse(readFileSync(join(WORKFLOWS, f), 'utf8')) as Workflow]),
);

export const needsOf = (job: Job): string[] => (job.needs === undefined ? [] : [job.needs].flat());
export const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** GitHub's matrix expansion: the cross product of the axes, minus `exclude`, then `include` (extending each
 * combination none of whose original values it would overwrite, else added as a combination of its own). */
function expand(matrix: Record<string, unknown> | undefined): Combo[] {
  if (!matrix) return [{}];
  const { include = [], exclude = [], ...axes } = matrix as Record<string, unknown[]>;
  const keys = Object.keys(axes);
  let base: Combo[] = keys.length ? [{}] : [];
  for (const k of keys) base = base.flatMap((c) => axes[k].map((v) => ({ ...c, [k]: str(v) })));
  const asCombo = (o: unknown): Combo =>
    Object.fromEntries(Object.entries(o as Record<string, unknown>).map(([k, v]) => [k, str(v)]));
  const matches = (c: Combo, o: Combo, on: string[]) => on.every((k) => !(k in o) || o[k] === c[k]);
  base = base.filter((c) => !exclude.map(asCombo).some((x) => matches(c, x, Object.keys(x))));
  const out = base.map((c) => ({ ...c }));
  for (const inc of include.map(asCombo)) {
    let used = false;
    base.forEach((c, i) => {
      if (matches(c, inc, keys)) {
        Object.assign(out[i], inc);
        used = true;
      }
    });
    if (!used) out.push(inc);
  }
  return out.length ? out : [{}];
}

/** Substitutes `${{ matrix.x }}`; any other expression is left as it is. */
export function render(text: string, combo: Combo): string {
  return text.replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (_, k: string) => {
    if (!(k in combo)) throw new Error(`\${{ matrix.${k} }} is not a matrix key in ${JSON.stringify(combo)}`);
    return combo[k];
  });
}

/** The simple commands of a `run:` script: words, with redirections (`>> file`) dropped. */
function commands(script: string): string[][] {
  const out: string[][] = [];
  for (const line of script.replace(/\\\n/g, ' ').split('\n')) {
    const text = line.trim();
    if (!text || text.startsWith('#')) continue;
    for (const part of text.split(/&&|\|\||[;|]/)) {
      const words = [...part.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
      const kept: string[] = [];
      for (let i = 0; i < words.length; i++) {
        if (/^\d*(>>?|<)$/.test(words[i])) i++;
        else if (!/^\d*(>>?|<)/.test(words[i])) kept.push(words[i]);
      }
      if (kept.length) out.push(kept);
    }
  }
  return out;
}

export function globRegExp(glob: string): RegExp {
  const body = glob
    .split('')
    .map((ch) => (ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

export interface RunStep {
  file: string;
  jobId: string;
  job: Job;
  combo: Combo;
  step: Step;
  index: number;
  commands: string[][];
}
/** Every `run:` step of every workflow, once per matrix combination, rendered. */
export const runSteps: RunStep[] = [];
for (const [file, wf] of workflows)
  for (const [jobId, job] of Object.entries(wf.jobs ?? {}))
    for (const combo of expand(job.strategy?.matrix))
      (job.steps ?? []).forEach((step, index) => {
        if (typeof step.run === 'string')
          runSteps.push({
            file,
            jobId,
            job,
            combo,
            step,
            index,
            commands: commands(render(step.run, combo)),
          });
      });
export const opgateCalls = runSteps.flatMap((r) =>
  r.commands.filter((c) => c[0] === 'npx' && c[1] === 'opgate').map((c) => ({ ...r, args: c.slice(2) })),
);
export const optionValue = (args: string[], name: string): string | undefined => {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
};

/** The CLI's `--help`, parsed: its subcommands and its options (with their choices, where it lists them). */
export interface Help {
  commands: string[];
  options: Map<string, string[] | null>;
}
function parseHelp(text: string): Help {
  const help: Help = { commands: [], options: new Map() };
  let section = '';
  let last: string | null = null;
  let described = '';
  const flush = () => {
    if (!last) return;
    const choices = described.match(/\(choices: ([^)]*?)(?:, default: [^)]*)?\)/)?.[1];
    help.options.set(last, choices ? [...choices.matchAll(/"([^"]*)"/g)].map((m) => m[1]) : null);
    last = null;
  };
  for (const line of text.split('\n')) {
    if (/^\S.*:$/.test(line)) {
      flush();
      section = line;
      continue;
    }
    if (section === 'Commands:') {
      const m = line.match(/^ {2}([a-z][\w-]*)/);
      if (m && m[1] !== 'help') help.commands.push(m[1]);
    } else if (section === 'Options:') {
      const m = line.match(/^ {2}(?:-\w, )?(--[\w-]+)(.*)$/);
      if (m) {
        flush();
        last = m[1];
        described = m[2];
      } else described += ` ${line.trim()}`;
    }
  }
  flush();
  return help;
}
const run = promisify(execFile);
export const helps = new Map<string, Help>();
export async function loadHelp(path: string[]): Promise<void> {
  const key = path.join(' ');
  if (helps.has(key)) return;
  const { stdout } = await run(process.execPath, [BIN, ...path, '--help'], { cwd: ROOT, timeout: 60_000 });
  helps.set(key, parseHelp(stdout));
}
/** The command path of an opgate invocation (`['bc', 'check']`), as far as the CLI knows it. */
export function commandPath(args: string[]): string[] {
  const path: string[] = [];
  for (const word of args) {
    const help = helps.get(path.join(' '));
    if (!help || word.startsWith('-') || !help.commands.includes(word)) break;
    path.push(word);
  }
  return path;
}
