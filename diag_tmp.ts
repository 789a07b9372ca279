import { expandMatrix } from '/work/main/src/ci/index.ts';
import { runOracle } from '/work/main/src/oracles/index.ts';
const filters = JSON.parse(process.env.F ?? '{}');
const counts = new Map<string, number>();
const examples = new Map<string, string>();
let pass = 0, fail = 0, checks = 0;
const t0 = performance.now();
let skipped = 0, xfail = 0, xpass = 0;
for (const inst of expandMatrix((process.env.TIER as 'pull') ?? 'pull', filters)) {
  if (inst.rule?.kind === 'skip') { skipped++; continue; }
  if (inst.rule?.kind === 'xfail') { try { runOracle(inst); xpass++; console.log('XPASS', inst.id); } catch { xfail++; } continue; }
  try { checks += runOracle(inst).checks; pass++; } catch (e) {
    fail++;
    const msg = String((e as Error).message).split('\n')[0];
    const key = msg.replace(/test_\S+: /, '').replace(/sample #\d+/, 'sample').replace(/seed \d+/, 'seed').replace(/\d+\/\d+ elements/, 'N elements').replace(/index \d+/, 'index').replace(/got .*$/, '').slice(0, 150);
    const k2 = `${inst.oracle}:${inst.op}: ${key}`;
    counts.set(k2, (counts.get(k2) ?? 0) + 1);
    if (!examples.has(k2)) examples.set(k2, msg.slice(0, 400));
  }
}
const dt = (performance.now() - t0) / 1000;
console.log({ pass, fail, skipped, xfail, xpass, checks, seconds: dt.toFixed(1), checksPerS: (checks / dt).toFixed(0) });
for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.N ?? 40))) console.log(n, examples.get(k));
