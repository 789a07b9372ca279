/**
 * The GitHub Actions workflows, checked as data: each .github/workflows/*.yml parses; jobs, steps, `needs` and
 * step outputs are well formed; every command a `run:` step runs is an npm script, a file in the repository or
 * a real `opgate` command with real options (read from the CLI's own `--help`), and every opgate command and
 * option used is exercised by another test. The sharded conformance jobs are checked in
 * workflows_sharding.test.ts; the parsing is in workflows_helpers.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  commandPath,
  files,
  helps,
  loadHelp,
  needsOf,
  opgateCalls,
  optionValue,
  PACKAGE,
  ROOT,
  runSteps,
  SHELL_UTILITIES,
  str,
  workflows,
} from './workflows_helpers.ts';

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
        // The program's own options (--config, --target) go with every command.
        const root = helps.get('')!;
        expect([...help.options.keys(), ...root.options.keys()], `${where}: no option ${name}`).toContain(
          name,
        );
        const choices = help.options.get(name) ?? root.options.get(name);
        if (choices) expect(choices, `${where}: ${name}`).toContain(optionValue(c.args, name));
      }
    }
  });

  test('every opgate command and option a workflow uses is exercised by another test', () => {
    const tests = readdirSync(join(ROOT, 'tests/unit'))
      .filter((f) => f.endsWith('.test.ts') && !f.startsWith('workflows'))
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
