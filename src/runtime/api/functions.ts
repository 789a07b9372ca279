/** The torch-like function namespace (`torch.add(a, b)`), built from the variants the op definitions declare. */

import type { Tensor } from '../core/index.ts';
import { operatorTable } from '../dispatch/index.ts';
import { fn1, fnN, type OpArg } from './call.ts';
import { apiNames, type FunctionName, type ListName } from './names.ts';

type Single = (...args: OpArg[]) => Tensor;
type Multi = (...args: OpArg[]) => Tensor[];

// A row whose name widened to `string` would turn every name into a valid one: refuse that at compile time.
const namesAreLiteral: string extends FunctionName ? never : true = true;
void namesAreLiteral;

/** `torch.<op>` for every op declared a function; list-returning ops give Tensor[]. */
export type TorchFunctions = { readonly [K in FunctionName]: K extends ListName ? Multi : Single };

export function buildTorchFunctions(): TorchFunctions {
  const { functions, lists } = apiNames();
  return Object.freeze(
    Object.fromEntries(
      functions.map((n) => {
        const op = operatorTable.apiTarget(n, 'function');
        return [n, lists.includes(n) ? fnN(op) : fn1(op)];
      }),
    ),
  ) as TorchFunctions;
}
