/** Enumerates the operator table: every overload with its schema, family and kernels. */
import { operatorTable } from '../dispatch/index.ts';

export interface OpListing {
  readonly name: string;
  readonly overload: string;
  readonly schema: string;
  readonly family: string;
  readonly kernels: readonly string[];
  readonly mutates: boolean;
  /** A torch.nn.functional Python function with no aten schema (softsign): its schema is the Python signature. */
  readonly pythonOnly: boolean;
}

export function listOps(): OpListing[] {
  return operatorTable.entries().map((e) => ({
    name: e.schema.name,
    overload: e.schema.overload,
    schema: e.schema.text,
    family: e.tags.family,
    kernels: e.kernelKeys(),
    mutates: e.schema.mutates,
    pythonOnly: e.tags.pythonOnly ?? false,
  }));
}

/** Which Python variants of an op exist, read from the operator table (what a conformance harness checks). */
export interface OpVariants {
  /** `torch.name(...)` (or the alias `nn.functional.name(...)`): every op in the table can be called. */
  readonly function: boolean;
  /** `t.name(...)`: the op itself (not an alias) declares the method variant. */
  readonly method: boolean;
  /** `t.name_(...)`: an in-place overload `name_` is in the table. */
  readonly inplace: boolean;
  /** `name(..., out=t)`: some overload takes an `out` tensor. */
  readonly out: boolean;
}

/** Raises E_UNKNOWN_OP for a name the table cannot resolve. */
export function opVariants(name: string): OpVariants {
  const entries = operatorTable.resolve(name);
  const surface = operatorTable.surfaces().find(([n]) => n === name)?.[1];
  return {
    function: true,
    method: surface?.method ?? false,
    inplace: operatorTable.names().includes(`${name}_`),
    // Tensors it writes that the caller passes: aten's keyword-only ones, whatever their names (`out`, or
    // fractional_max_pool2d.output's `output` and `indices`), and a Python definition's positional `out`
    // (torch.norm's).
    out: entries.some((e) =>
      e.schema.args.some((a) => a.type.alias?.isWrite === true && (a.kwargOnly || a.name === 'out')),
    ),
  };
}
