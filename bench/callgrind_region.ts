/**
 * The program valgrind runs for one count of opgate's own scenarios (bench/scenarios.ts):
 * `node --predictable callgrind_region.js <scenario> <iterations>`, or `--list` (src/ci/perf/region.ts).
 * OPGATE_PERF_INJECT registers the perf gate's deliberate regressions first (perf_inject.ts; its tests only).
 */
import { runRegion } from '../src/ci/perf/region.ts';
import { applyPerfInjections } from './perf_inject.ts';
import { SCENARIOS } from './scenarios.ts';

runRegion(SCENARIOS, process.argv.slice(2), applyPerfInjections);
