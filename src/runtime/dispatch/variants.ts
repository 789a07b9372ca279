/**
 * Which Python surfaces an op has (native_functions.yaml's `variants: function, method`). The in-place and
 * out= variants are not declared here: they exist exactly when their overloads (`add_`, `add.out`) are in the
 * table. A family file declares its ops' variants as an `as const` map right beside their definitions, so
 * the same literal is the runtime fact (the functions and methods installed from the table) and the type
 * (the names tsc checks on `torch.*` and Tensor).
 */

export type Variants = 'function' | 'method' | 'function, method';
/** `[variants, 'list']`: the op returns several tensors (split, sort, max.dim). */
export type ApiEntry = Variants | readonly [Variants, 'list'];
export type ApiDecl = Readonly<Record<string, ApiEntry>>;

export interface OpSurface {
  readonly function: boolean;
  readonly method: boolean;
  readonly list: boolean;
}

export function surfaceOf(e: ApiEntry): OpSurface {
  const v = typeof e === 'string' ? e : e[0];
  return { function: v !== 'method', method: v !== 'function', list: typeof e !== 'string' };
}

type VariantsOf<E> = E extends readonly [infer V, 'list'] ? V : E;
/** Names of a declaration that are Python functions (`torch.name`). */
export type FunctionNames<D> = {
  [K in keyof D]: VariantsOf<D[K]> extends 'method' ? never : K;
}[keyof D] &
  string;
/** Names of a declaration that are Tensor methods (`t.name()`). */
export type MethodNames<D> = {
  [K in keyof D]: VariantsOf<D[K]> extends 'function' ? never : K;
}[keyof D] &
  string;
/** Names of a declaration that return several tensors. */
export type ListNames<D> = { [K in keyof D]: D[K] extends readonly [Variants, 'list'] ? K : never }[keyof D] &
  string;
