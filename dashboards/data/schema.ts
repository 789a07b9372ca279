/**
 * The coverage view's schema coverage: every PyTorch 1.13 aten overload of op_db's ops, implemented (and called
 * by a sample), declared unsupported with its reason, or uncovered, with the arguments samples exercise; the same
 * for every Python signature of their spellings (torch.*, Tensor.*, torch.nn.functional.*) and its keywords. A
 * function of op_db and the runtime alone (not of the results store), so it is computed once per process.
 */
import { opDb } from '../../op_db/index.ts';
import {
  type PythonStatus,
  type PythonTally,
  pythonCoverage,
  type SchemaCoverage,
  schemaCoverage,
} from '../../src/ci/index.ts';

export interface SchemaOverloadRow {
  readonly name: string;
  readonly status: 'implemented' | 'unsupported' | 'uncovered';
  readonly reason?: string;
  readonly calls: number;
  readonly args: { readonly total: number; readonly exercised: number; readonly missing: readonly string[] };
}

export interface PythonSignatureRow {
  /** `torch.add`, `Tensor.add_`. */
  readonly spelling: string;
  /** The parameter list as PyTorch 1.13 writes it. */
  readonly signature: string;
  readonly status: PythonStatus;
  readonly reason?: string;
  readonly calls: number;
  /** Keywords no sample passes and no declaration covers. */
  readonly uncoveredKeywords: readonly string[];
}

export interface SchemaData {
  /** PyTorch 1.13's Python signatures of the spellings of op_db names, and their keywords. */
  readonly python: {
    readonly signatures: PythonTally;
    readonly keywords: PythonTally;
    readonly rows: readonly PythonSignatureRow[];
  };
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
  const py = pythonCoverage(opDb);
  cached = {
    python: {
      signatures: py.signatures,
      keywords: py.keywords,
      rows: py.spellings.flatMap((s) =>
        s.signatures.map((g) => ({
          spelling: s.name,
          signature: g.signature.replace(/ -> .*$/, ''),
          status: g.status,
          ...(g.reason !== undefined && { reason: g.reason }),
          calls: g.calls,
          uncoveredKeywords: g.keywords.filter((k) => k.status === 'uncovered').map((k) => k.name),
        })),
      ),
    },
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
