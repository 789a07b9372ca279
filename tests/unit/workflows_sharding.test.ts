/**
 * The GitHub Actions workflows' sharded conformance jobs, checked as data: each device's `--shard i/N` matrix
 * entries cover 1..N exactly; the artifacts the shard jobs upload are the ones the merge job downloads and
 * merges; the shards plan from the history cache the merge jobs save. The parsing is in workflows_helpers.ts.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  files,
  globRegExp,
  needsOf,
  opgateCalls,
  optionValue,
  render,
  runSteps,
  str,
  WORKFLOWS,
  workflows,
} from './workflows_helpers.ts';

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
