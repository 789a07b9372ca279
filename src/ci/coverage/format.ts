/** `opgate coverage`'s text: per op its overloads with status and exercised arguments, then the totals. */
import type { OverloadCoverage, SchemaCoverage } from './compute.ts';

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
