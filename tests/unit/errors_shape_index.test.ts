/**
 * Error codes the runtime raises, triggered through the public API: the `code` is stable, the class is the
 * matching OpgateError subclass, and the message names the op and what it got / expected. This file: shapes,
 * dims, views, indices and invalid arguments.
 */
import { describe, expect, it } from 'vitest';
import * as core from '../../src/runtime/core/index.ts';
import * as T from '../../src/runtime/index.ts';
import { expectCode, namesGotExpected } from './errors_helpers.ts';

const { tensor, zeros } = { ...T, ...T.torch };
const E = core;

describe('E_SHAPE_MISMATCH', () => {
  it('broadcasting two incompatible shapes', () => {
    const err = expectCode(() => T.torch.add(zeros(2, 3), zeros(4, 3)), 'E_SHAPE_MISMATCH', {
      op: 'add',
      cls: E.ShapeMismatchError,
      says: [
        'must match the size of tensor b (4) at non-singleton dimension 0',
        'got [2, 3]',
        'expected a shape broadcastable with [4, 3]',
      ],
    });
    namesGotExpected(err);
  });
  it('view with a shape of the wrong numel', () => {
    namesGotExpected(
      expectCode(() => zeros(2, 3).view(4, 2), 'E_SHAPE_MISMATCH', {
        op: 'view',
        arg: 'shape',
        says: ["shape '[4, 2]' is invalid for input of size 6"],
      }),
    );
  });
  it('expand to an incompatible size', () => {
    namesGotExpected(expectCode(() => zeros(3).expand(2), 'E_SHAPE_MISMATCH', { op: 'expand', arg: 'size' }));
  });
  it('split_with_sizes that do not sum to the dim', () => {
    namesGotExpected(
      expectCode(() => zeros(4).split([1, 2]), 'E_SHAPE_MISMATCH', { op: 'split', arg: 'split_sizes' }),
    );
  });
  it('a ragged nested list in tensor()', () => {
    expectCode(() => tensor([[1, 2], [3]]), 'E_SHAPE_MISMATCH', { op: 'tensor', arg: 'data' });
  });
});

describe('E_DIM_OUT_OF_RANGE', () => {
  it('transpose with a dim past the end', () => {
    const err = expectCode(() => zeros(2, 3).transpose(0, 5), 'E_DIM_OUT_OF_RANGE', {
      op: 'transpose',
      arg: 'dim1',
      cls: E.DimOutOfRangeError,
      says: ['Dimension out of range', 'got 5', 'expected to be in range of [-2, 1]'],
    });
    namesGotExpected(err);
  });
  it('negative dims past the start, and 0-d tensors', () => {
    expectCode(() => zeros(2, 3).select(-3, 0), 'E_DIM_OUT_OF_RANGE', { op: 'select', says: ['got -3'] });
    expectCode(() => zeros(2).unsqueeze(3), 'E_DIM_OUT_OF_RANGE', { op: 'unsqueeze' });
    expectCode(() => tensor(1).squeeze(1), 'E_DIM_OUT_OF_RANGE', { op: 'squeeze', says: ['[-1, 0]'] });
    expectCode(() => zeros(2, 3).flatten(0, 2), 'E_DIM_OUT_OF_RANGE', { op: 'flatten', arg: 'end_dim' });
  });
});

describe('E_INVALID_VIEW', () => {
  it('view(-1) of a transposed tensor', () => {
    const err = expectCode(() => zeros(3, 4).t().view(-1), 'E_INVALID_VIEW', {
      op: 'view',
      arg: 'size',
      cls: E.InvalidViewError,
      says: [
        "view size is not compatible with input tensor's size and stride",
        'Use .reshape(...) instead.',
        'got [12]',
      ],
    });
    namesGotExpected(err);
  });
});

describe('E_INVALID_ARGUMENT', () => {
  it("getitem's string spec: an item that is not an int, a slice, None or ... is named", () => {
    for (const item of ['1.5', 'x'])
      namesGotExpected(
        expectCode(() => T.getitem(zeros(3), item), 'E_INVALID_ARGUMENT', {
          op: 'getitem',
          arg: 'index',
          says: ['bad index', `got ${item}`, 'int, slice, None or ...'],
        }),
      );
    expect(T.getitem(zeros(3), '1').shape).toEqual([]);
  });
  it('factories with a negative size / zero step', () => {
    namesGotExpected(
      expectCode(() => zeros(-1), 'E_INVALID_ARGUMENT', {
        op: 'zeros',
        arg: 'size',
        cls: E.InvalidArgumentError,
        says: ['negative dimension -1'],
      }),
    );
    namesGotExpected(
      expectCode(() => T.torch.arange(0, 5, 0), 'E_INVALID_ARGUMENT', { op: 'arange', arg: 'step' }),
    );
    namesGotExpected(
      expectCode(() => T.torch.arange(0, 5, -1), 'E_INVALID_ARGUMENT', { op: 'arange', arg: 'end' }),
    );
    expectCode(() => T.torch.linspace(0, 1, -1), 'E_INVALID_ARGUMENT', { op: 'linspace', arg: 'steps' });
  });
  it('a float alpha for integral tensors (PyTorch message)', () => {
    namesGotExpected(
      expectCode(() => T.torch.add(tensor([1]), tensor([2]), { alpha: 0.5 }), 'E_INVALID_ARGUMENT', {
        op: 'add',
        arg: 'alpha',
        says: ['For integral input tensors, argument alpha must not be a floating point number.'],
      }),
    );
    expectCode(
      () => T.torch.sub(tensor([1.5]), tensor([2.5]), { alpha: T.complex(0, 1) }),
      'E_INVALID_ARGUMENT',
      {
        op: 'sub',
        says: ['must not be a complex number'],
      },
    );
    expectCode(() => T.torch.add(tensor([1]), tensor([2]), { alpha: true }), 'E_INVALID_ARGUMENT', {
      op: 'add',
      says: ['Boolean alpha'],
    });
  });
  it('bad view arguments', () => {
    expectCode(() => zeros(2, 3).permute(0, 0), 'E_INVALID_ARGUMENT', { op: 'permute', arg: 'dims' });
    expectCode(() => zeros(2, 3).view(-1, -1), 'E_INVALID_ARGUMENT', {
      op: 'view',
      says: ['only one dimension can be inferred'],
    });
    expectCode(() => zeros(2, 3, 4).t(), 'E_INVALID_ARGUMENT', { op: 't' });
    expectCode(() => zeros(4).chunk(0), 'E_INVALID_ARGUMENT', { op: 'chunk' });
    expectCode(() => T.callOp('slice', [zeros(4), 0, 0, 4, 0]), 'E_INVALID_ARGUMENT', {
      op: 'slice',
      arg: 'step',
    });
    expectCode(() => zeros(2, 2).diagonal(0, 1, 1), 'E_INVALID_ARGUMENT', { op: 'diagonal' });
  });
  it('item() of a multi-element tensor', () => {
    expectCode(() => zeros(2).item(), 'E_INVALID_ARGUMENT', {
      op: 'item',
      says: ['a Tensor with 2 elements cannot be converted to Scalar'],
    });
  });
});

describe('E_INDEX_OUT_OF_RANGE', () => {
  it('select past the end', () => {
    const err = expectCode(() => zeros(2, 3).select(0, 5), 'E_INDEX_OUT_OF_RANGE', {
      op: 'select',
      arg: 'index',
      cls: E.IndexOutOfRangeError,
      says: ['index 5 is out of bounds for dimension 0 with size 2', 'got 5', 'expected in [-2, 1]'],
    });
    namesGotExpected(err);
  });
  it('getitem with too many indices, narrow past the end, as_strided past the storage', () => {
    expectCode(() => T.getitem(zeros(2), 0, 0), 'E_INDEX_OUT_OF_RANGE', {
      op: 'getitem',
      says: ['too many indices for tensor of dimension 1'],
    });
    expectCode(() => zeros(4).narrow(0, 2, 3), 'E_INDEX_OUT_OF_RANGE', { op: 'narrow' });
    expectCode(() => zeros(4).as_strided([3], [2]), 'E_INDEX_OUT_OF_RANGE', { op: 'as_strided' });
    expectCode(() => tensor(1).select(0, 0), 'E_INDEX_OUT_OF_RANGE', { op: 'select', says: ['0-dim'] });
  });
});
