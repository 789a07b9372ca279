/**
 * Rewrites tests/fixtures/python_uncovered.json, the Python-signature gaps that tests/unit/python_coverage.test.ts
 * allows (uncovered signatures; uncovered keywords of covered ones). Run it after closing gaps, and review the
 * diff: the list may only shrink.
 *   node --import tsx tools/python_surface/gaps.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { opDb } from '../../op_db/index.ts';
import { pythonCoverage } from '../../src/ci/coverage/index.ts';

const c = pythonCoverage(opDb);
const signatures: string[] = [];
const keywords: string[] = [];
for (const s of c.spellings)
  for (const g of s.signatures) {
    const key = `${s.name}${g.signature.replace(/ -> .*$/, '')}`;
    if (g.status === 'uncovered') signatures.push(key);
    else for (const k of g.keywords) if (k.status === 'uncovered') keywords.push(`${key} ${k.name}`);
  }
const path = join(import.meta.dirname, '../../tests/fixtures/python_uncovered.json');
writeFileSync(path, `${JSON.stringify({ signatures, keywords }, null, 1)}\n`);
console.log(`${path}: ${signatures.length} signatures, ${keywords.length} keywords`);
