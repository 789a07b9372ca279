/** Recorded instance durations, for duration-based sharding. */
import { type ResultsSource, SQL } from './connection.ts';

/**
 * The durations of every instance's results that ran (skips and errors say nothing about its time), by id,
 * newest run first; from complete normal runs only (passed or failed, ended), so that a run in progress (another
 * shard writing the same file) or one cut short never changes a plan, nor a rerun-disabled run's repeated
 * reruns. Every stored result: the definition the instances' recent history (recent.ts) is checked against.
 */
export function durationRows(src: ResultsSource): { id: string; ms: number }[] {
  return src[SQL]
    .prepare(
      `SELECT r.id, r.duration_ms AS ms FROM results r JOIN runs u ON u.run_id = r.run_id
     WHERE r.status IN ('pass','fail','xfail','xpass','flaky') AND u.kind = 'normal' AND u.status IN ('passed','failed')
       AND u.ended_at IS NOT NULL
     ORDER BY r.id, r.run_id DESC`,
    )
    .all() as { id: string; ms: number }[];
}
