/** Enumerates the operator table: every overload with its schema, family and kernels. */
import { operatorTable } from '../dispatch/index.ts';

export interface OpListing {
  readonly name: string;
  readonly overload: string;
  readonly schema: string;
  readonly family: string;
  readonly kernels: readonly string[];
  readonly mutates: boolean;
}

export function listOps(): OpListing[] {
  return operatorTable.entries().map((e) => ({
    name: e.schema.name,
    overload: e.schema.overload,
    schema: e.schema.text,
    family: e.tags.family,
    kernels: e.kernelKeys(),
    mutates: e.schema.mutates,
  }));
}
