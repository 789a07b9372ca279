/**
 * Dashboards: time to a rendered grid of 50 commits × 16 jobs (8 shards × cpu/webgpu, the full pull matrix per
 * commit: about a million results) in headless Chromium, measured in the page (navigation start to the grid's
 * ready mark, and first contentful paint); the server's time per document; the static build's time and size.
 * Figures are reported, never asserted. Needs Debian's chromium (`.ci/install-chromium`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDashboard, launchChromium, seedDemoDb, serveDashboard } from '../dashboards/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'opgate-dash-bench-'));
const db = join(dir, 'bench.db');
let t = performance.now();
const facts = seedDemoDb(db, { commits: 50, shards: 8, devices: ['cpu', 'webgpu'] });
console.log(
  `seeded ${facts.shas.length} commits × ${facts.jobs.length} jobs × ${facts.instances} instances in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);

const dash = await serveDashboard({ db, port: 0, repo: null });
for (const doc of ['grid', 'coverage', 'flaky', 'perf', 'shards', 'tests', 'numerics']) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    bytes = (await (await fetch(`${dash.url}data/${doc}.json`)).text()).length;
    times.push(performance.now() - t);
  }
  console.log(
    `server data/${doc}.json: median ${times.sort((a, b) => a - b)[1].toFixed(0)} ms, ${(bytes / 1024).toFixed(0)} KiB`,
  );
}

const context = await launchChromium();
const page = await context.newPage();
const ready: number[] = [];
const fcp: number[] = [];
for (let i = 0; i < 7; i++) {
  await page.goto(`${dash.url}?run=${i}#/grid`);
  await page.waitForSelector('.view[data-view="grid"][data-ready=""]');
  const [r, f] = await page.evaluate(() => [
    performance.getEntriesByName('opgate:ready:grid')[0]?.startTime ?? Number.NaN,
    performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  ]);
  // The first load also compiles the bundle in a cold browser; report it apart.
  if (i === 0)
    console.log(`cold load: grid ready ${r.toFixed(0)} ms, first contentful paint ${f.toFixed(0)} ms`);
  else {
    ready.push(r);
    fcp.push(f);
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `warm loads (${ready.length}): grid ready median ${med(ready).toFixed(0)} ms (max ${Math.max(...ready).toFixed(0)}), first contentful paint median ${med(fcp).toFixed(0)} ms`,
);
await context.close();
await dash.close();

t = performance.now();
const r = await buildDashboard({ db, out: join(dir, 'site'), repo: null });
console.log(
  `static build: ${r.files} files, ${(r.bytes / 1e6).toFixed(2)} MB in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);
