/**
 * Shard planning quality and cost: for the pull and full tiers with a synthetic heavy-tailed history (and with
 * the real history of a results database when given), the planned max/mean shard time for 2, 4 and 8 shards
 * and how long planning takes. Informational.
 *   npx tsx bench/shard.bench.ts [--db .opgate/opgate.db] [--json]
 */
import {
  estimator,
  expandMatrix,
  loadDurations,
  type MatrixInstance,
  makeUnits,
  planShards,
  sampleCounter,
  type Tier,
} from '../src/ci/index.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const db = args.includes('--db') ? args[args.indexOf('--db') + 1] : null;

function synthetic(instances: readonly MatrixInstance[]): Map<string, number> {
  let s = 7;
  const rnd = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  // Log-uniform over ~3 orders of magnitude, autograd oracles 20x slower: like a real matrix.
  return new Map(instances.map((i) => [i.id, Math.exp(rnd() * 7) * (i.oracle.startsWith('grad') ? 20 : 1)]));
}

const rows: Record<string, unknown>[] = [];
for (const tier of ['pull', 'full'] as Tier[]) {
  const instances = expandMatrix(tier);
  const histories: [string, Map<string, number>][] = [['synthetic', synthetic(instances)]];
  if (db) histories.push([`history ${db}`, loadDurations(db)]);
  histories.push(['none (estimates)', new Map()]);
  for (const [name, history] of histories) {
    for (const shards of [2, 4, 8]) {
      const t0 = performance.now();
      const plan = planShards(
        makeUnits(instances, history, { shards, estimate: estimator(sampleCounter()) }),
        shards,
      );
      rows.push({
        tier,
        history: name,
        shards,
        instances: instances.length,
        'max/mean': Number(plan.imbalance.toFixed(4)),
        'plan ms': Math.round(performance.now() - t0),
      });
    }
  }
}
if (json) console.log(JSON.stringify(rows, null, 2));
else console.table(rows);
