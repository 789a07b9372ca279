/**
 * Wall-clock figures for the perf scenarios (bench/scenarios.ts) through tinybench: median, p75, relative
 * margin of error and sample count. Informational only — the gate is the instruction count (`opgate perf check`).
 *   npx tsx bench/perf.bench.ts [--json] [--time ms] [--scenario a,b]
 */
import { Bench } from 'tinybench';
import { SCENARIOS } from './scenarios.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const time = Number(args[args.indexOf('--time') + 1]) || 300;
const only = args.includes('--scenario') ? args[args.indexOf('--scenario') + 1].split(',') : null;

const bench = new Bench({ time, warmup: true });
const chosen = SCENARIOS.filter((s) => !only || only.includes(s.name));
for (const s of chosen) bench.add(s.name, s.setup());
await bench.run();

const rows = bench.tasks.map((t) => {
  const r = t.result as { latency?: { p50?: number; p75?: number; rme: number; samplesCount: number } };
  const l = r.latency;
  return {
    scenario: t.name,
    'median us': l?.p50 === undefined ? 'error' : (l.p50 * 1000).toFixed(2),
    'p75 us': l?.p75 === undefined ? '' : (l.p75 * 1000).toFixed(2),
    'rme %': l ? l.rme.toFixed(2) : '',
    samples: l ? l.samplesCount : 0,
  };
});
if (json) console.log(JSON.stringify(rows, null, 2));
else console.table(rows);
