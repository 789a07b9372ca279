/**
 * The coverage view's schema coverage: every PyTorch 1.13 aten overload of op_db's ops, implemented (and called
 * by a sample), declared unsupported with its reason, or uncovered, with the arguments samples exercise. A
 * function of op_db and the runtime alone (not of the results store), so it is computed once per process.
 */
import { opDb } from '../../op_db/index.ts';
import { type SchemaCoverage, schemaCoverage } from '../../src/ci/index.ts';

export interface SchemaOverloadRow {
  readonly name: string;
  readonly status: 'implemented' | 'unsupported' | 'uncovered';
  readonly reason?: string;
  readonly calls: number;
  readonly args: { readonly total: number; readonly exercised: number; readonly missing: readonly string[] };
}

export interface SchemaData {
  readonly overloads: SchemaCoverage['overloads'];
  readonly arguments: SchemaCoverage['arguments'];
  readonly torchScriptOnlyExcluded: number;
  readonly ops: readonly {
    base: string;
    infos: readonly string[];
    overloads: readonly SchemaOverloadRow[];
  }[];
}

let cached: SchemaData | null = null;

export function schemaData(): SchemaData {
  if (cached) return cached;
  const c = schemaCoverage(opDb);
  cached = {
    overloads: c.overloads,
    arguments: c.arguments,
    torchScriptOnlyExcluded: c.torchScriptOnlyExcluded,
    ops: c.ops.map((op) => ({
      base: op.base,
      infos: op.infos,
      overloads: op.overloads.map((o) => ({
        name: o.name,
        status: o.status,
        ...(o.reason !== undefined && { reason: o.reason }),
        calls: o.calls,
        args: {
          total: o.args.length,
          exercised: o.args.filter((a) => a.exercised).length,
          missing: o.args.filter((a) => !a.exercised).map((a) => a.name),
        },
      })),
    })),
  };
  return cached;
}
