/**
 * torch.nn.functional.one_hot: int64 class indices -> an int64 tensor with a trailing dim of num_classes, 1 at each
 * index. The values decide the checks and (num_classes=-1) the output shape, so only the cpu kernel can run it:
 * the meta device raises, as PyTorch 1.13's does, a compile trace breaks the graph at it (`dataDependent`), and
 * webgpu has no int64 arithmetic.
 */

import { defineDerivative } from '../../../autograd/index.ts';
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  NotImplementedError,
  Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, operatorTable } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';

export const NN_ONE_HOT_API = { one_hot: 'function' } as const satisfies ApiDecl;

const op = 'one_hot';

function checkIndex(self: Tensor): void {
  if (self.dtype !== 'int64')
    throw new DTypeUnsupportedError('one_hot is only applicable to index tensor.', {
      op,
      arg: 'self',
      got: DTYPE_INFO[self.dtype].torchName,
      expected: 'Long',
    });
}

/** The value of a 0-dim int64 cpu tensor (a reduction's result). */
const int64At = (x: Tensor) => Number(x.storage.data![x.storageOffset] as bigint);

function oneHot(self: Tensor, numClasses: number): Tensor {
  checkIndex(self);
  const shape = [...self.shape];
  if (self.numel === 0) {
    if (numClasses <= 0)
      throw new InvalidArgumentError('Can not infer total number of classes from empty tensor.', {
        op,
        arg: 'num_classes',
        got: numClasses,
        expected: '> 0 for an empty input',
      });
    return Tensor.empty([...shape, numClasses], 'int64', self.device);
  }
  const lo = int64At(t('min', [self]));
  if (lo < 0)
    throw new InvalidArgumentError('Class values must be non-negative.', {
      op,
      arg: 'self',
      got: lo,
      expected: '>= 0',
    });
  const hi = int64At(t('max', [self]));
  const classes = numClasses === -1 ? hi + 1 : numClasses;
  if (classes <= hi)
    throw new InvalidArgumentError('Class values must be smaller than num_classes.', {
      op,
      arg: 'num_classes',
      got: numClasses,
      expected: `> ${hi}`,
    });
  const out = t('zeros', [[...shape, classes]], { dtype: 'int64', device: self.device });
  return t('scatter_', [out, -1, t('unsqueeze', [self, -1]), 1]);
}

export function registerNnOneHot(): void {
  defineOp({
    schema: 'one_hot(Tensor self, int num_classes=-1) -> Tensor',
    tags: { family: 'index', dataDependent: true },
    cpu: (a) => oneHot(a.self as Tensor, a.num_classes as number),
    meta: (a) => {
      checkIndex(a.self as Tensor);
      throw new NotImplementedError('Can not infer total number of classes from meta tensor.', {
        op,
        arg: 'self',
        got: 'a meta tensor',
        expected: 'index values (the output shape and checks depend on them)',
      });
    },
  });
  defineDerivative(op, { nondifferentiable: 'int64 class indices in, int64 indicator values out' });
  operatorTable.alias('nn.functional.one_hot', op);
  operatorTable.declare(NN_ONE_HOT_API);
}
