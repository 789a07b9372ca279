/** `opgate coverage`'s text: per op its overloads with status and exercised arguments, then the totals. */
import type { OverloadCoverage, SchemaCoverage } from './compute.ts';
import type { PythonCoverage, PythonTally } from './python.ts';

function line(o: OverloadCoverage): string {
  const name = o.name.padEnd(30);
  if (o.status === 'unsupported') return `  ${name} unsupported (${o.reason})`;
  const exercised = o.args.filter((a) => a.exercised).length;
  const missing = o.args.filter((a) => !a.exercised).map((a) => a.name);
  const args = `args ${exercised}/${o.args.length}${missing.length ? `, unexercised: ${missing.join(', ')}` : ''}`;
  if (o.status === 'uncovered') return `  ${name} UNCOVERED (${o.reason})${o.args.length ? `; ${args}` : ''}`;
  return `  ${name} implemented, ${o.calls} call(s); ${args}`;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : 'n/a');

export function formatCoverage(c: SchemaCoverage): string {
  const out: string[] = [];
  for (const op of c.ops) {
    const infos = op.infos.join(', ');
    out.push(`${op.base}${infos === op.base ? '' : ` (${infos})`}`);
    for (const o of op.overloads) out.push(line(o));
  }
  const { overloads: o, arguments: a, omittableArguments: m } = c;
  out.push(
    '',
    `overloads: ${o.total} (implemented ${o.implemented}, unsupported ${o.unsupported}, uncovered ${o.uncovered})`,
    `arguments exercised: ${a.exercised}/${a.total} (${pct(a.exercised, a.total)}); ` +
      `omittable ones: ${m.exercised}/${m.total} (${pct(m.exercised, m.total)})`,
    `int[N] arguments passed both as a list and as one int: ${c.intListForms.both}/${c.intListForms.total}`,
    `TorchScript-only overloads left out (no Tensor argument or return): ${c.torchScriptOnlyExcluded}`,
  );
  for (const s of c.staleDeclarations) out.push(`stale unsupportedOverloads entry: ${s}`);
  return out.join('\n');
}

/** The gate: nothing uncovered and no stale declaration. */
export function coverageOk(c: SchemaCoverage): boolean {
  return c.overloads.uncovered === 0 && c.staleDeclarations.length === 0;
}

const tallyLine = (what: string, t: PythonTally) =>
  `${what}: ${t.total} (covered ${t.covered}, unsupported ${t.unsupported}, uncovered ${t.uncovered})`;

/** The Python surface: per spelling its uncovered signatures and keywords, then the totals. */
export function formatPythonCoverage(c: PythonCoverage): string {
  const out = ['Python signatures (PyTorch 1.13) of the spellings of op_db names:'];
  for (const s of c.spellings)
    for (const g of s.signatures) {
      const params = g.signature.replace(/ -> .*$/, '');
      if (g.status === 'uncovered') out.push(`  ${s.name}${params} UNCOVERED (${g.reason})`);
      else {
        const kws = g.keywords.filter((k) => k.status === 'uncovered').map((k) => k.name);
        if (kws.length) out.push(`  ${s.name}${params}: keywords uncovered: ${kws.join(', ')}`);
      }
    }
  out.push('', tallyLine('python signatures', c.signatures), tallyLine('python keywords', c.keywords));
  for (const s of c.staleDeclarations) out.push(`stale python declaration: ${s}`);
  return out.join('\n');
}

/** The Python gate: nothing uncovered, no stale declaration. */
export function pythonCoverageOk(c: PythonCoverage): boolean {
  return c.signatures.uncovered === 0 && c.keywords.uncovered === 0 && c.staleDeclarations.length === 0;
}
