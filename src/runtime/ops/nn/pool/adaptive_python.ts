/**
 * torch.nn.functional's adaptive poolings (Python-only `_functional_*` ops over aten's): None entries of
 * output_size keep the input's size, and return_indices picks the max poolings' outputs.
 */
import { InvalidArgumentError, type Tensor } from '../../../core/index.ts';
import { operatorTable } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';

/**
 * torch.nn.functional's _list_with_default: None entries of output_size take the input's trailing sizes. Python
 * refuses a list as long as the input's dims before aten sees it; bound, one int is a list too, so the check runs
 * where a None needs filling (otherwise aten's own dim check raises).
 */
function withDefaults(size: readonly (number | null)[], x: Tensor): number[] {
  if (size.includes(null) && x.ndim <= size.length)
    throw new InvalidArgumentError(`Input dimension should be at least ${size.length + 1}`, {
      op: 'adaptive_pool',
      arg: 'input',
      got: x.ndim,
      expected: `at least ${size.length + 1} dims`,
    });
  return size.map((s, i) => s ?? x.shape[x.ndim - size.length + i]);
}

export function registerAdaptivePoolPython(): void {
  const python = { family: 'pooling', decomposed: true, pythonOnly: true } as const;
  for (const k of [2, 3] as const) {
    defineOp({
      schema: `_functional_adaptive_avg_pool${k}d(Tensor input, int?[${k}] output_size) -> Tensor`,
      tags: python,
      composite: (a) => {
        const x = a.input as Tensor;
        return t(`adaptive_avg_pool${k}d`, [x, withDefaults(a.output_size as (number | null)[], x)]);
      },
    });
    operatorTable.alias(`nn.functional.adaptive_avg_pool${k}d`, `_functional_adaptive_avg_pool${k}d`);
  }
  for (const k of [1, 2, 3] as const) {
    defineOp({
      schema: `_functional_adaptive_max_pool${k}d(Tensor input, int${k === 1 ? '' : '?'}[${k}] output_size, bool return_indices=False) -> Tensor`,
      tags: python,
      composite: (a) => {
        const x = a.input as Tensor;
        const size = k === 1 ? a.output_size : withDefaults(a.output_size as (number | null)[], x);
        const out = t(`adaptive_max_pool${k}d`, [x, size]) as unknown as Tensor[];
        return (a.return_indices ? out : out[0]) as Tensor;
      },
    });
    operatorTable.alias(`nn.functional.adaptive_max_pool${k}d`, `_functional_adaptive_max_pool${k}d`);
  }
}
