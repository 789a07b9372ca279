/** Recorded instance durations, for duration-based sharding. */
import { type ResultsSource, SQL } from './connection.ts';

/**
 * The durations of every instance's results that ran (skips and errors say nothing about its time), by id,
 * newest run first.
 */
export function durationRows(src: ResultsSource): { id: string; ms: number }[] {
  return src[SQL]
    .prepare(
      `SELECT id, duration_ms AS ms FROM results WHERE status IN ('pass','fail','xfail','xpass','flaky')
     ORDER BY id, run_id DESC`,
    )
    .all() as { id: string; ms: number }[];
}
