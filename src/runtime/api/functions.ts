/** The torch-like function namespace generated from the name lists (plus hand-typed extras). */

import type { Tensor } from '../core/index.ts';
import { fn1, fnN, type OpArg } from './call.ts';
import { BINARY_NAMES, FUNCTION_ONLY_NAMES, MULTI_NAMES, OTHER_NAMES, UNARY_NAMES } from './names.ts';

type Single = (...args: OpArg[]) => Tensor;
type Multi = (...args: OpArg[]) => Tensor[];
type SingleName =
  | (typeof UNARY_NAMES)[number]
  | (typeof BINARY_NAMES)[number]
  | (typeof OTHER_NAMES)[number]
  | (typeof FUNCTION_ONLY_NAMES)[number];

export const torchFunctions = Object.fromEntries([
  ...[...UNARY_NAMES, ...BINARY_NAMES, ...OTHER_NAMES, ...FUNCTION_ONLY_NAMES].map((n) => [n, fn1(n)]),
  ...MULTI_NAMES.map((n) => [n, fnN(n)]),
]) as Record<SingleName, Single> & Record<(typeof MULTI_NAMES)[number], Multi>;
