/**
 * `ops.<namespace>.<name>(...)`: any op by its namespace, as Python's `torch.ops.myops.scale_shift(x)` reaches a
 * custom op (`ops.aten.add(a, b)` is `add`). A trailing plain object is the keyword arguments; an unknown name is
 * E_UNKNOWN_OP at the call.
 */
import type { Tensor } from '../core/index.ts';
import { invoke, type OpArg } from './call.ts';

export type OpsNamespace = Readonly<
  Record<string, Readonly<Record<string, (...args: OpArg[]) => Tensor | Tensor[]>>>
>;

export const ops: OpsNamespace = new Proxy(
  {},
  {
    get: (_t, ns) =>
      typeof ns !== 'string'
        ? undefined
        : new Proxy(
            {},
            {
              get: (_u, name) =>
                typeof name !== 'string'
                  ? undefined
                  : (...args: OpArg[]) => invoke(ns === 'aten' ? name : `${ns}::${name}`, args) as Tensor,
            },
          ),
  },
);
