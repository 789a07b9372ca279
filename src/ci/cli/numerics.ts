/**
 * `opgate numerics [--db] [--commit] [--json] [--fail-on-drift]`: the numerics fingerprint (max ulp per op ×
 * device × dtype) of a commit, the newest by default, against the previous commit that has one; drifts first.
 * It reports; only `--fail-on-drift` turns a drift into exit status 1.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { CiError } from '../errors.ts';
import { type FingerprintRow, numericsFingerprint, resolveCommit } from '../numerics.ts';
import { DEFAULT_DB, ResultsStore } from '../store/store.ts';

/** A max ulp as printed: whole numbers as they are, others to 3 significant digits; no value as `—`. */
export const fmtUlp = (u: number | null): string =>
  u === null
    ? '—'
    : u === Number.POSITIVE_INFINITY
      ? 'inf'
      : Number.isInteger(u)
        ? String(u)
        : u.toPrecision(3);

/** JSON has no Infinity: an unbounded error (a NaN or infinite output where PyTorch's is finite) is "Infinity". */
const jsonUlp = (_k: string, v: unknown) => (v === Number.POSITIVE_INFINITY ? 'Infinity' : v);

function table(rows: readonly FingerprintRow[]): string[] {
  const head = ['op', 'device', 'dtype', 'max ulp', 'before', 'change', 'worst instance'];
  const cells = rows.map((r) => [
    r.op,
    r.device,
    r.dtype,
    fmtUlp(r.now),
    fmtUlp(r.before),
    r.change === 'drift' ? 'DRIFT' : r.change,
    r.worst,
  ]);
  const width = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const right = new Set([3, 4]);
  const line = (c: readonly string[]) =>
    c
      .map((x, i) => (i === c.length - 1 ? x : right.has(i) ? x.padStart(width[i]) : x.padEnd(width[i])))
      .join('  ');
  return [line(head), ...cells.map(line)];
}

export function registerNumericsCommands(program: Command): void {
  program
    .command('numerics')
    .description(
      'the numerics fingerprint: max ulp per op × device × dtype at a commit (the newest by default) against ' +
        'the previous commit that has one; drifts first',
    )
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--commit <sha>', 'the commit (a sha or a unique prefix; default: the newest with runs)')
    .option('--json', 'print JSON')
    .option('--fail-on-drift', 'exit 1 when a max ulp drifted')
    .action((o: { db: string; commit?: string; json?: boolean; failOnDrift?: boolean }) => {
      // Reading must not create a database; the store then refuses a foreign or newer file and migrates an older.
      if (!existsSync(o.db)) throw new CiError('E_FILE_NOT_FOUND', `--db: ${o.db} does not exist`);
      const store = new ResultsStore(o.db);
      let f: ReturnType<typeof numericsFingerprint>;
      try {
        f = numericsFingerprint(store, o.commit === undefined ? undefined : resolveCommit(store, o.commit));
      } finally {
        store.close();
      }
      if (o.json) console.log(JSON.stringify(f, jsonUlp, 2));
      else if (f.sha === null) console.log(`no runs in ${o.db}`);
      else if (f.rows.length === 0)
        console.log(`no max ulp recorded at ${f.sha.slice(0, 12)} or before (the golden oracle records it)`);
      else {
        console.log(
          `numerics fingerprint at ${f.sha.slice(0, 12)} vs ${f.baseline ? f.baseline.slice(0, 12) : 'nothing (no earlier commit has one)'}; drift: ${f.rule}`,
        );
        for (const l of table(f.rows)) console.log(`  ${l}`);
        console.log(`${f.drifts.length} drift(s) in ${f.rows.length} op × device × dtype cell(s)`);
      }
      if (o.failOnDrift && f.drifts.length > 0) process.exitCode = 1;
    });
}
