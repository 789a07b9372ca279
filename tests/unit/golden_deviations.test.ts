/**
 * Deviations from PyTorch are data (op_db/deviations.ts) and documented: every declaration says why, and every op
 * with a declared golden deviation or loosened golden tolerance has a row in docs/deviations.md, the page
 * `npx opgate docs` generates from that data (docs_generated.test.ts checks the page is current).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { opDb } from '../../op_db/index.ts';

const PAGE = readFileSync(new URL('../../docs/deviations.md', import.meta.url), 'utf8');
const declared = opDb.filter(
  (o) => o.goldenDeviations.length > 0 || Object.keys(o.goldenTolerances).length > 0,
);

describe('declared deviations from PyTorch 1.13', () => {
  test('there are some, each with a reason', () => {
    expect(declared.length).toBeGreaterThan(0);
    for (const o of declared) {
      for (const d of o.goldenDeviations) expect(d.reason.length, o.name).toBeGreaterThan(40);
      for (const t of Object.values(o.goldenTolerances)) expect(t!.reason.length, o.name).toBeGreaterThan(40);
    }
  });

  test.each(declared.map((o) => o.name))('docs/deviations.md has a row for %s', (name) => {
    const row = new RegExp(`^\\| \`${name.replace(/[.]/g, '\\.')}\` +\\|`, 'm');
    expect(PAGE, 'run `npx opgate docs`').toMatch(row);
  });
});
