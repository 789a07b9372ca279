/**
 * The names the public API exposes, read from the operator table: each op's definition declares its variants
 * (`function`, `method`; in-place `name_` ops are methods), so functions, methods and this listing cannot
 * drift from the definitions. Call after the ops are registered (the runtime's index does so at import).
 */

import type { FunctionNames, ListNames, MethodNames } from '../dispatch/index.ts';
import { operatorTable } from '../dispatch/index.ts';
import type { OpApi } from '../ops/index.ts';

export type FunctionName = FunctionNames<OpApi>;
export type MethodName = MethodNames<OpApi>;
export type ListName = ListNames<OpApi>;

export interface ApiNames {
  /** `torch.name(...)`. */
  readonly functions: readonly string[];
  /** `t.name(...)`, in-place `name_` included. */
  readonly methods: readonly string[];
  /** Those returning several tensors (a list or a values/indices pair). */
  readonly lists: readonly string[];
}

export function apiNames(): ApiNames {
  const surfaces = operatorTable.surfaces();
  const pick = (f: (s: (typeof surfaces)[number][1]) => boolean) =>
    surfaces.filter(([, s]) => f(s)).map(([n]) => n);
  return { functions: pick((s) => s.function), methods: pick((s) => s.method), lists: pick((s) => s.list) };
}
