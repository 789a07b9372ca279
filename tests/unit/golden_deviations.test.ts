/**
 * Deviations from PyTorch are data (op_db/deviations.ts) and documented: every op with a declared golden
 * deviation or loosened golden tolerance is named in the README's "Deliberate deviations" list, and every
 * declaration says why.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { opDb } from '../../op_db/index.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = README.slice(
  README.indexOf('**Deliberate deviations from PyTorch**'),
  README.indexOf('## WebGPU'),
);
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

  test.each(declared.map((o) => o.name))("the README's deviations list names %s", (name) => {
    expect(section).toMatch(new RegExp(`(?<![\\w.])${name.replace(/[.]/g, '\\.')}(?!\\w)`));
  });
});
