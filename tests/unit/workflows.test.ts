/**
 * The GitHub Actions workflows, checked as data: each .github/workflows/*.yml parses; jobs, steps, `needs` and
 * step outputs are well formed; each device's `--shard i/N` matrix entries cover 1..N exactly; the artifacts the
 * shard jobs upload are the ones the merge job downloads and merges; every command a `run:` step runs is an npm
 * script, a file in the repository or a real `opgate` command with real options (read from the CLI's own
 * `--help`), and every opgate command and option used is exercised by another test.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const WORKFLOWS = join(ROOT, '.github/workflows');
const BIN = join(ROOT, 'bin/opgate.mjs');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
/** Shell utilities a step may use around the project's own commands (plumbing into $GITHUB_STEP_SUMMARY). */
const SHELL_UTILITIES = new Set(['cat', 'echo']);

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  name?: string;
  'runs-on'?: string;
  'timeout-minutes'?: number;
  needs?: string | string[];
  if?: string;
  outputs?: Record<string, string>;
  strategy?: { 'fail-fast'?: boolean; matrix?: Record<string, unknown> };
  steps?: Step[];
}
interface Workflow {
  name?: string;
  on?: Record<string, unknown> | string | string[];
  jobs?: Record<string, Job>;
}
type Combo = Record<string, string>;

const files = readdirSync(WORKFLOWS)
  .filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'))
  .sort();
const workflows = new Map<string, Workflow>(
  files.map((f) => [f, parse(readFileSync(join(WORKFLOWS, f), 'utf8')) as Workflow]),
);

const needsOf = (job: Job): string[] => (job.needs === undefined ? [] : [job.needs].flat());
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

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
function render(text: string, combo: Combo): string {
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

function globRegExp(glob: string): RegExp {
  const body = glob
    .split('')
    .map((ch) => (ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

interface RunStep {
  file: string;
  jobId: string;
  job: Job;
  combo: Combo;
  step: Step;
  index: number;
  commands: string[][];
}
/** Every `run:` step of every workflow, once per matrix combination, rendered. */
const runSteps: RunStep[] = [];
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
const opgateCalls = runSteps.flatMap((r) =>
  r.commands.filter((c) => c[0] === 'npx' && c[1] === 'opgate').map((c) => ({ ...r, args: c.slice(2) })),
);
const optionValue = (args: string[], name: string): string | undefined => {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
};

/** The CLI's `--help`, parsed: its subcommands and its options (with their choices, where it lists them). */
interface Help {
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
const helps = new Map<string, Help>();
async function loadHelp(path: string[]): Promise<void> {
  const key = path.join(' ');
  if (helps.has(key)) return;
  const { stdout } = await run(process.execPath, [BIN, ...path, '--help'], { cwd: ROOT, timeout: 60_000 });
  helps.set(key, parseHelp(stdout));
}
/** The command path of an opgate invocation (`['bc', 'check']`), as far as the CLI knows it. */
function commandPath(args: string[]): string[] {
  const path: string[] = [];
  for (const word of args) {
    const help = helps.get(path.join(' '));
    if (!help || word.startsWith('-') || !help.commands.includes(word)) break;
    path.push(word);
  }
  return path;
}

beforeAll(async () => {
  // Root first, then each level the workflows use, each level's helps in parallel (a cold CLI start is ~1 s).
  await loadHelp([]);
  for (let depth = 1; depth <= 2; depth++) {
    const todo = new Map<string, string[]>();
    for (const c of opgateCalls) {
      const p = commandPath(c.args).slice(0, depth);
      if (p.length === depth) todo.set(p.join(' '), p);
    }
    await Promise.all([...todo.values()].map(loadHelp));
  }
}, 120_000);

test('there are the pull and periodic workflows', () => {
  expect(files).toEqual(expect.arrayContaining(['periodic.yml', 'pull.yml']));
});

describe.each(files)('%s', (file) => {
  const wf = workflows.get(file)!;
  const jobs = Object.entries(wf.jobs ?? {});

  test('has a name, triggers and jobs; scheduled crons have five fields', () => {
    expect(wf.name).toBeTruthy();
    expect(wf.on).toBeTruthy();
    expect(jobs.length).toBeGreaterThan(0);
    const on = wf.on as Record<string, unknown>;
    for (const s of (on.schedule as { cron: string }[] | undefined) ?? [])
      expect(s.cron.trim().split(/\s+/)).toHaveLength(5);
  });

  test.each(jobs)(
    'job %s: runs-on, a timeout, steps that each either use a pinned action or run',
    (_, job) => {
      expect(job['runs-on']).toBeTruthy();
      expect(job['timeout-minutes']).toBeGreaterThan(0);
      expect(job.steps?.length).toBeGreaterThan(0);
      for (const step of job.steps ?? []) {
        expect('uses' in step !== 'run' in step, JSON.stringify(step)).toBe(true);
        if (step.uses) expect(step.uses).toMatch(/^[\w.-]+\/[\w./-]+@v\d+$/);
        if (step.run !== undefined) expect(step.run.trim()).not.toBe('');
      }
    },
  );

  test('needs name existing jobs, without cycles; needs.* and steps.* expressions resolve', () => {
    const ids = new Set(jobs.map(([id]) => id));
    for (const [, job] of jobs) for (const n of needsOf(job)) expect(ids).toContain(n);
    const done = new Set<string>();
    for (let pass = 0; pass < ids.size; pass++)
      for (const [id, job] of jobs) if (needsOf(job).every((n) => done.has(n))) done.add(id);
    expect([...done].sort(), 'a needs cycle').toEqual([...ids].sort());
    for (const [id, job] of jobs) {
      const text = JSON.stringify(job);
      for (const [, other, output] of text.matchAll(/needs\.([\w-]+)\.outputs\.([\w-]+)/g)) {
        expect(needsOf(job), `${id} reads needs.${other}`).toContain(other);
        expect(Object.keys(wf.jobs?.[other]?.outputs ?? {}), `${other} declares ${output}`).toContain(output);
      }
      const stepIds = (job.steps ?? []).map((s) => s.id).filter(Boolean);
      for (const [, stepId] of text.matchAll(/steps\.([\w-]+)\.outputs/g)) expect(stepIds).toContain(stepId);
    }
  });
});

test('pull runs .ci/run, the BC gate and the pull tier; periodic runs the full tier nightly and on demand', () => {
  const runs = (file: string) =>
    runSteps.filter((r) => r.file === file).map((r) => r.commands.map((c) => c.join(' ')));
  expect(runs('pull.yml').flat()).toEqual(expect.arrayContaining(['bash .ci/run', 'npx opgate bc check']));
  const tiers = (file: string) =>
    new Set(
      opgateCalls
        .filter((c) => c.file === file && c.args[0] === 'run')
        .map((c) => optionValue(c.args, '--tier')),
    );
  expect([...tiers('pull.yml')]).toEqual(['pull']);
  expect([...tiers('periodic.yml')]).toEqual(['full']);
  const on = workflows.get('periodic.yml')?.on as Record<string, unknown>;
  expect(Object.keys(on).sort()).toEqual(['schedule', 'workflow_dispatch']);
  expect(Object.keys(workflows.get('pull.yml')?.on as object).sort()).toEqual(['pull_request', 'push']);
});

describe('commands', () => {
  test('every run step runs an npm script, a file in the repository or an opgate command', () => {
    expect(runSteps.length).toBeGreaterThan(0);
    for (const r of runSteps)
      for (const [cmd, ...args] of r.commands) {
        const where = `${r.file} ${r.jobId}: ${[cmd, ...args].join(' ')}`;
        if (cmd === 'npm') {
          if (args[0] === 'ci') expect(args, where).toEqual(['ci']);
          else {
            expect(args[0], where).toBe('run');
            expect(Object.keys(PACKAGE.scripts), where).toContain(args[1]);
          }
        } else if (cmd === 'bash') expect(existsSync(join(ROOT, args[0])), where).toBe(true);
        else if (cmd === 'npx')
          expect(args[0], `${where}: npx runs only the project's own CLI`).toBe('opgate');
        else expect(SHELL_UTILITIES, where).toContain(cmd);
      }
  });

  test('every opgate call names a real command and its real options (and valid choices)', () => {
    expect(opgateCalls.length).toBeGreaterThan(0);
    for (const c of opgateCalls) {
      const where = `${c.file} ${c.jobId}: opgate ${c.args.join(' ')}`;
      const path = commandPath(c.args);
      expect(path.length, `${where}: unknown command`).toBeGreaterThan(0);
      const help = helps.get(path.join(' '))!;
      expect(help.commands, `${where}: ${path.join(' ')} needs a subcommand`).toEqual([]);
      for (const word of c.args.slice(path.length)) {
        if (!word.startsWith('--')) continue;
        const name = word.split('=')[0];
        expect([...help.options.keys()], `${where}: no option ${name}`).toContain(name);
        const choices = help.options.get(name);
        if (choices) expect(choices, `${where}: ${name}`).toContain(optionValue(c.args, name));
      }
    }
  });

  test('every opgate command and option a workflow uses is exercised by another test', () => {
    const tests = readdirSync(join(ROOT, 'tests/unit'))
      .filter((f) => f.endsWith('.test.ts') && f !== 'workflows.test.ts')
      .map((f) => readFileSync(join(ROOT, 'tests/unit', f), 'utf8'))
      .join('\n');
    const used = new Set<string>();
    for (const c of opgateCalls) {
      for (const w of commandPath(c.args)) used.add(w);
      for (const w of c.args) if (w.startsWith('--')) used.add(w.split('=')[0]);
    }
    const missing = [...used].filter((w) => !tests.includes(`'${w}'`));
    expect(missing, 'not spelled as a literal in any tests/unit test').toEqual([]);
  });

  test('jobs that run npx install dependencies first, from a node_modules cache keyed on the lockfile', () => {
    for (const [file, wf] of workflows)
      for (const [jobId, job] of Object.entries(wf.jobs ?? {})) {
        const steps = job.steps ?? [];
        const first = steps.findIndex((s) => /\bnpx\b/.test(s.run ?? ''));
        if (first < 0) continue;
        const install = steps.findIndex((s) => s.run?.trim() === 'npm ci');
        expect(install, `${file} ${jobId}`).toBeGreaterThanOrEqual(0);
        expect(install, `${file} ${jobId}`).toBeLessThan(first);
        const cache = steps.find(
          (s) => s.uses?.startsWith('actions/cache@') && s.with?.path === 'node_modules',
        );
        expect(str(cache?.with?.key), `${file} ${jobId}`).toContain("hashFiles('package-lock.json')");
        expect(steps[install].if, `${file} ${jobId}`).toBe(`steps.${cache?.id}.outputs.cache-hit != 'true'`);
      }
  });
});

describe('sharded conformance jobs', () => {
  const shardCalls = opgateCalls.filter((c) => c.args[0] === 'run' && optionValue(c.args, '--shard'));
  // The matrix workflows; rerun-disabled.yml runs only the quarantined instances, unsharded.
  const sharded = files.filter((f) => readFileSync(join(WORKFLOWS, f), 'utf8').includes('--shard'));

  test('each matrix workflow has a matrix job running opgate run --shard', () => {
    expect(sharded).toEqual(expect.arrayContaining(['pull.yml', 'periodic.yml']));
    for (const file of sharded)
      expect(
        shardCalls.some((c) => c.file === file),
        file,
      ).toBe(true);
  });

  test("each device's --shard i/N values cover 1..N exactly once, in a fail-slow matrix", () => {
    const groups = new Map<string, string[]>();
    for (const c of shardCalls) {
      expect(c.job.strategy?.matrix, c.jobId).toBeTruthy();
      expect(c.job.strategy?.['fail-fast'], c.jobId).toBe(false);
      const key = `${c.file} ${optionValue(c.args, '--tier')} ${optionValue(c.args, '--device')}`;
      groups.set(key, [...(groups.get(key) ?? []), optionValue(c.args, '--shard')!]);
    }
    for (const [key, specs] of groups) {
      const n = Number(specs[0].split('/')[1]);
      const expected = Array.from({ length: n }, (_, i) => `${i + 1}/${n}`);
      expect(specs.sort(), key).toEqual(expected.sort());
    }
    // The webgpu shards get Mesa, every device shards at least once.
    for (const file of sharded) {
      const devices = new Set(
        shardCalls.filter((c) => c.file === file).map((c) => optionValue(c.args, '--device')),
      );
      expect([...devices].sort(), file).toEqual(['cpu', 'meta', 'webgpu']);
    }
    for (const c of shardCalls.filter((x) => optionValue(x.args, '--device') === 'webgpu')) {
      const mesa = c.job.steps?.findIndex((s) => s.run === 'bash .ci/install-mesa') ?? -1;
      expect(mesa, c.jobId).toBeGreaterThanOrEqual(0);
      expect(mesa).toBeLessThan(c.index);
      expect(render(str(c.job.steps?.[mesa].if), c.combo)).toMatch(/matrix\.device == 'webgpu'|^$/);
    }
  });

  test('each shard writes its own DB, JUnit and Markdown summary and uploads them as its own artifact', () => {
    const names = new Set<string>();
    for (const c of shardCalls) {
      const upload = c.job.steps?.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
      expect(upload?.if, `${c.jobId}: results are kept when tests fail`).toBe('always()');
      const name = render(str(upload?.with?.name), c.combo);
      expect(names.has(`${c.file} ${name}`), `${c.file}: artifact ${name} is uploaded twice`).toBe(false);
      names.add(`${c.file} ${name}`);
      const paths = render(str(upload?.with?.path), c.combo).split('\n').filter(Boolean);
      for (const opt of ['--db', '--junit', '--summary-md'])
        expect(paths, opt).toContain(optionValue(c.args, opt));
      const summary = optionValue(c.args, '--summary-md');
      const step = (c.job.steps ?? []).find((s) => render(str(s.run), c.combo).includes(`cat ${summary} >>`));
      expect(step?.run, `${c.jobId}: the summary goes to $GITHUB_STEP_SUMMARY`).toContain(
        '"$GITHUB_STEP_SUMMARY"',
      );
    }
  });

  test('the merge job downloads exactly those artifacts and merges every shard DB', () => {
    for (const file of sharded) {
      const wf = workflows.get(file)!;
      const calls = shardCalls.filter((c) => c.file === file);
      const matrixJob = calls[0].jobId;
      const merges = Object.entries(wf.jobs ?? {}).filter(([, j]) => needsOf(j).includes(matrixJob));
      expect(merges.length, file).toBe(1);
      const [mergeId, merge] = merges[0];
      expect(merge.if, 'the merge runs when shards fail').toMatch(/^\$\{\{ !cancelled\(\) \}\}$/);
      const download = merge.steps?.find((s) => s.uses?.startsWith('actions/download-artifact@'));
      const pattern = str(download?.with?.pattern ?? download?.with?.name);
      const dir = str(download?.with?.path);
      expect(download?.with?.['merge-multiple'], 'each artifact in its own folder').toBeFalsy();
      // What lands on the merge job's disk: <path>/<artifact name>/<file>.
      const downloaded = calls.flatMap((c) => {
        const upload = c.job.steps?.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
        const name = render(str(upload?.with?.name), c.combo);
        expect(name, `${file}: ${mergeId} downloads ${pattern}`).toMatch(globRegExp(pattern));
        return [
          optionValue(c.args, '--db')!,
          optionValue(c.args, '--junit')!,
          optionValue(c.args, '--summary-md')!,
        ].map((f) => ({ path: posix.join(dir, name, f), db: f === optionValue(c.args, '--db') }));
      });
      const mergeCall = opgateCalls.find(
        (c) => c.file === file && c.jobId === mergeId && c.args[0] === 'merge',
      );
      expect(mergeCall, `${file}: ${mergeId} runs opgate merge`).toBeTruthy();
      const inputArgs = mergeCall!.args
        .slice(1)
        .filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--into');
      const merged = downloaded.filter((d) => inputArgs.some((g) => globRegExp(g).test(d.path)));
      expect(merged.map((d) => d.path).sort(), 'the merge reads every shard DB and nothing else').toEqual(
        downloaded
          .filter((d) => d.db)
          .map((d) => d.path)
          .sort(),
      );
      // Every other glob the merge job reads from the download folder matches something downloaded.
      for (const r of runSteps.filter((x) => x.file === file && x.jobId === mergeId))
        for (const cmd of r.commands)
          for (const arg of cmd.filter((a) => a.startsWith(`${dir}/`)))
            expect(
              downloaded.some((d) => globRegExp(arg).test(d.path)),
              `${arg} matches nothing`,
            ).toBe(true);
      const into = optionValue(mergeCall!.args, '--into');
      const upload = merge.steps?.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
      expect(str(upload?.with?.path).split('\n'), 'the merged DB is kept').toContain(into);
    }
  });

  test('shards plan from the history cache the merge jobs save, all from the same entry', () => {
    const steps = [...workflows.values()].flatMap((wf) =>
      Object.values(wf.jobs ?? {}).flatMap((job) => (job.steps ?? []).map((step) => ({ wf, job, step }))),
    );
    const saves = steps.filter((s) => s.step.uses?.startsWith('actions/cache/save@'));
    expect(saves.length).toBeGreaterThan(0);
    for (const c of shardCalls) {
      const history = optionValue(c.args, '--history');
      const restore = c.job.steps?.find(
        (s) => s.uses?.startsWith('actions/cache/restore@') && s.with?.path === history,
      );
      expect(restore, `${c.jobId} restores ${history}`).toBeTruthy();
      // Its key is the one a lookup job found, so every shard of the run restores the same immutable entry.
      const m = str(restore?.with?.key).match(/^\$\{\{ needs\.([\w-]+)\.outputs\.([\w-]+) \}\}$/);
      expect(m, 'the key comes from a lookup job').toBeTruthy();
      const lookupJob = workflows.get(c.file)?.jobs?.[m![1]];
      const stepId = str(lookupJob?.outputs?.[m![2]]).match(
        /steps\.([\w-]+)\.outputs\.cache-matched-key/,
      )?.[1];
      const lookup = lookupJob?.steps?.find((s) => s.id === stepId);
      expect(lookup?.uses).toMatch(/^actions\/cache\/restore@/);
      expect(lookup?.with?.['lookup-only']).toBe(true);
      expect(lookup?.with?.path, 'cache versions depend on the path').toBe(history);
      expect(restore?.if).toBe(`needs.${m![1]}.outputs.${m![2]} != ''`);
      const prefix = str(lookup?.with?.['restore-keys']).trim();
      expect(
        saves.some((s) => s.step.with?.path === history && str(s.step.with?.key).startsWith(prefix)),
        `a merge job saves ${history} under ${prefix}`,
      ).toBe(true);
    }
  });
});
