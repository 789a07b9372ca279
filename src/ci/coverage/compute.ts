/**
 * Schema coverage: every PyTorch 1.13 aten overload of every op in op_db (TorchScript-only ones aside; for a
 * Python-only torch.nn.functional function, its runtime schema, which is its Python signature) is either
 * implemented in the runtime's operator table and called by an op_db sample, or declared unsupported with a
 * reason (`OpInfo.unsupportedOverloads`); anything else is uncovered. For implemented overloads, each argument
 * is exercised when some sample passes it explicitly (positionally or by keyword; `out` by the out= calls).
 */
import type { OpInfo } from '../../../op_db/index.ts';
import { operatorTable, type Schema } from '../../runtime/index.ts';
import { atenOverloadsOf, atenSchemas } from './aten.ts';
import { type BoundCall, sampleCalls } from './calls.ts';

export type OverloadStatus = 'implemented' | 'unsupported' | 'uncovered';

export interface ArgCoverage {
  readonly name: string;
  readonly exercised: boolean;
  /** Has a default, is optional (`int?`) or keyword-only: a sample has to pass it on purpose. */
  readonly omittable: boolean;
  /** `int[1]`-style arguments, which also take a single int: which of the two forms some sample passes. */
  readonly forms?: { readonly list: boolean; readonly single: boolean };
}

export interface OverloadCoverage {
  /** The qualified name, `sum.dim_IntList`. */
  readonly name: string;
  readonly schema: string;
  readonly status: OverloadStatus;
  /** unsupported: the declared reason; uncovered: what is missing. */
  readonly reason?: string;
  /** How many sample calls bind to it. */
  readonly calls: number;
  /** Implemented overloads only: the runtime schema's arguments. */
  readonly args: readonly ArgCoverage[];
}

export interface OpCoverage {
  /** The aten base name (`relu` for `nn.functional.relu`). */
  readonly base: string;
  /** The OpInfos (PyTorch OpInfo names) whose samples and declarations count for it. */
  readonly infos: readonly string[];
  readonly overloads: readonly OverloadCoverage[];
  /** TorchScript-only overloads of the same names, not listed (no Tensor anywhere). */
  readonly torchScriptOnly: readonly string[];
}

export interface Tally {
  readonly total: number;
  readonly exercised: number;
}

export interface SchemaCoverage {
  readonly overloads: { total: number; implemented: number; unsupported: number; uncovered: number };
  readonly arguments: Tally;
  /** The arguments a sample could leave out (defaults, optionals, keyword-only), among `arguments`. */
  readonly omittableArguments: Tally;
  /** `int[1]` arguments: how many are passed both as a list and as a single int. */
  readonly intListForms: { total: number; both: number };
  /** TorchScript-only overloads left out of the listing. */
  readonly torchScriptOnlyExcluded: number;
  /** `unsupportedOverloads` entries naming an implemented overload or no overload of the op at all. */
  readonly staleDeclarations: readonly string[];
  readonly ops: readonly OpCoverage[];
}

export interface CoverageOptions {
  /** The sample calls to count (default: every call of every sample of `infos`). */
  readonly calls?: readonly BoundCall[];
  readonly schemas?: readonly Schema[];
}

/** The aten base name of an OpInfo: the schema name its runtime op resolves to (aliases followed). */
export function atenBaseOf(info: OpInfo): string {
  return operatorTable.resolve(info.op)[0].schema.name;
}

function argCoverage(schema: Schema, calls: readonly BoundCall[]): ArgCoverage[] {
  return schema.args.map((a) => {
    const passing = calls.filter((c) => c.given.includes(a.name));
    const intList = a.type.isList && a.type.listSize !== null && /^(int|SymInt)$/.test(a.type.base);
    const single = passing.some((c) => c.single.includes(a.name));
    return {
      name: a.name,
      exercised: passing.length > 0,
      omittable: a.hasDefault || a.type.optional || a.kwargOnly,
      ...(intList && { forms: { list: passing.some((c) => !c.single.includes(a.name)), single } }),
    };
  });
}

function overloadCoverage(
  s: Schema,
  calls: readonly BoundCall[],
  declared: string | undefined,
): OverloadCoverage {
  const entry = operatorTable.entries().find((e) => e.schema.qualifiedName === s.qualifiedName);
  const mine = calls.filter((c) => c.overload === s.qualifiedName);
  const base = { name: s.qualifiedName, schema: s.text, calls: mine.length };
  if (!entry) {
    return declared !== undefined
      ? { ...base, status: 'unsupported', reason: declared, args: [] }
      : { ...base, status: 'uncovered', reason: 'not implemented and not declared unsupported', args: [] };
  }
  const args = argCoverage(entry.schema, mine);
  if (mine.length === 0)
    return { ...base, status: 'uncovered', reason: 'implemented, but no op_db sample calls it', args };
  return { ...base, status: 'implemented', args };
}

export function schemaCoverage(infos: readonly OpInfo[], options: CoverageOptions = {}): SchemaCoverage {
  const calls = options.calls ?? sampleCalls(infos);
  const schemas = options.schemas ?? atenSchemas();
  const byBase = new Map<string, OpInfo[]>();
  for (const info of infos) byBase.set(atenBaseOf(info), [...(byBase.get(atenBaseOf(info)) ?? []), info]);
  const stale: string[] = [];
  const ops = [...byBase].map(([base, mine]): OpCoverage => {
    const names = new Set(mine.map((i) => i.name));
    const theirCalls = calls.filter((c) => names.has(c.info));
    const declared: Record<string, string> = Object.assign({}, ...mine.map((i) => i.unsupportedOverloads));
    const aten = atenOverloadsOf(base, schemas);
    const { torchScriptOnly } = aten;
    // A Python-only function (nn.functional.softsign) has no aten schema: its own signature is what samples cover.
    const python = operatorTable.entries().filter((e) => e.schema.name === base && e.tags.pythonOnly);
    const listed = aten.listed.length === 0 ? python.map((e) => e.schema) : aten.listed;
    const overloads = listed.map((s) => overloadCoverage(s, theirCalls, declared[s.qualifiedName]));
    for (const key of Object.keys(declared)) {
      const o = overloads.find((x) => x.name === key);
      if (!o) stale.push(`${base}: ${key} is not a listed aten overload of ${base}`);
      else if (o.status !== 'unsupported')
        stale.push(`${base}: ${key} is implemented, yet declared unsupported`);
    }
    return {
      base,
      infos: [...names],
      overloads,
      torchScriptOnly: torchScriptOnly.map((s) => s.qualifiedName),
    };
  });
  const all = ops.flatMap((o) => o.overloads);
  const args = all.flatMap((o) => o.args);
  const omittable = args.filter((a) => a.omittable);
  const forms = args.filter((a) => a.forms);
  const count = (st: OverloadStatus) => all.filter((o) => o.status === st).length;
  return {
    overloads: {
      total: all.length,
      implemented: count('implemented'),
      unsupported: count('unsupported'),
      uncovered: count('uncovered'),
    },
    arguments: { total: args.length, exercised: args.filter((a) => a.exercised).length },
    omittableArguments: { total: omittable.length, exercised: omittable.filter((a) => a.exercised).length },
    intListForms: { total: forms.length, both: forms.filter((a) => a.forms?.list && a.forms.single).length },
    torchScriptOnlyExcluded: ops.reduce((n, o) => n + o.torchScriptOnly.length, 0),
    staleDeclarations: stale,
    ops,
  };
}
