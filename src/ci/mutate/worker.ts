/**
 * One mutant's matrix run, in a process of its own inside a mutation workspace (the mutated file already
 * written): runs the job's instances in order and reports on stdout, one line each: `P` before an instance
 * (the parent's heartbeat: a mutant that hangs one instance is a timeout), `K <json>` for a failing one (a kill:
 * the oracle, the instance id, the message), `D <json>` at the end with how many ran. First-failure mode stops at
 * the first kill; per-oracle mode skips an oracle's remaining instances once it has killed; the baseline check
 * (unmutated source) runs them all.
 */
import { readFileSync } from 'node:fs';
import { runOracle } from '../../oracles/index.ts';
import { NoAdapterError } from '../../runtime/index.ts';
import { instancesById, type Tier } from '../matrix.ts';

export interface WorkerJob {
  readonly tier: Tier;
  /** OpInfo names of the instances (to expand only their part of the matrix). */
  readonly ops: readonly string[];
  readonly ids: readonly string[];
  /** 'first': stop at the first kill; 'oracle': skip an oracle's instances once it killed; 'never': run all. */
  readonly stop: 'first' | 'oracle' | 'never';
}

export interface WorkerKill {
  readonly oracle: string;
  readonly id: string;
  readonly message: string;
}

const say = (tag: string, body?: unknown) =>
  process.stdout.write(body === undefined ? `${tag}\n` : `${tag} ${JSON.stringify(body)}\n`);

async function main(jobFile: string): Promise<void> {
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as WorkerJob;
  const byId = instancesById(job.tier, job.ops);
  const killed = new Set<string>();
  let ran = 0;
  for (const id of job.ids) {
    const inst = byId.get(id);
    if (!inst || (job.stop === 'oracle' && killed.has(inst.oracle))) continue;
    say('P');
    try {
      await runOracle(inst);
      ran++;
    } catch (e) {
      if (e instanceof NoAdapterError) continue;
      ran++;
      const message = String((e as Error)?.message ?? e).slice(0, 2000);
      say('K', { oracle: inst.oracle, id, message } satisfies WorkerKill);
      killed.add(inst.oracle);
      if (job.stop === 'first') break;
    }
  }
  say('D', { ran });
}

main(process.argv[2]).then(
  () => process.exit(0),
  (e) => {
    // A mutant that breaks the import graph (a module that no longer loads) fails every instance: a kill.
    say('K', { oracle: 'load', id: '(import)', message: String((e as Error)?.stack ?? e).slice(0, 2000) });
    say('D', { ran: 0 });
    process.exit(0);
  },
);
