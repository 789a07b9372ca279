/**
 * Error codes the runtime raises, triggered through the public API: the `code` is stable, the class is the
 * matching OpgateError subclass, and the message names the op and what it got / expected. This file: dtypes,
 * result types, zero division, in-place writes (broadcast, overlap, versions) and autograd.
 */
import { describe, expect, it } from 'vitest';
import * as core from '../../src/runtime/core/index.ts';
import * as T from '../../src/runtime/index.ts';
import { expectCode, namesGotExpected } from './errors_helpers.ts';

const { tensor, zeros } = { ...T, ...T.torch };
const E = core;

describe('E_DTYPE_UNSUPPORTED', () => {
  it('bitwise_and on float tensors', () => {
    const err = expectCode(() => T.torch.bitwise_and(tensor([1.5]), tensor([2.5])), 'E_DTYPE_UNSUPPORTED', {
      op: 'bitwise_and',
      cls: E.DTypeUnsupportedError,
      says: [`"bitwise_and" not implemented for 'Float'`, 'got float32', 'expected a dtype of kind bool/int'],
    });
    namesGotExpected(err);
  });
  it('sub on two bool tensors (PyTorch message)', () => {
    expectCode(() => T.torch.sub(tensor([true]), tensor([false])), 'E_DTYPE_UNSUPPORTED', {
      op: 'sub',
      says: ['Subtraction, the `-` operator, with two bool tensors is not supported', 'got bool'],
    });
  });
  it('neg on bool, relu on complex, atan2 on int64 promotes but remainder refuses complex', () => {
    expectCode(() => T.torch.neg(tensor([true])), 'E_DTYPE_UNSUPPORTED', { op: 'neg', says: ['Negation'] });
    expectCode(() => T.torch.relu(tensor([T.complex(1, 1)])), 'E_DTYPE_UNSUPPORTED', {
      op: 'relu',
      says: ['ComplexFloat'],
    });
    expectCode(() => T.torch.remainder(tensor([T.complex(1, 1)]), 2), 'E_DTYPE_UNSUPPORTED', {
      op: 'remainder',
    });
    expect(T.torch.atan2(tensor([1]), tensor([1])).dtype).toBe('float32');
  });
  it('in-place and out= variants check the dtype too', () => {
    expectCode(() => tensor([1.5]).bitwise_and_(tensor([1.5])), 'E_DTYPE_UNSUPPORTED', {
      op: 'bitwise_and_',
    });
    expectCode(
      () => T.torch.bitwise_or(tensor([1.5]), tensor([1.5]), { out: zeros(1) }),
      'E_DTYPE_UNSUPPORTED',
      {
        op: 'bitwise_or',
      },
    );
  });
});

describe('E_INPLACE_BROADCAST', () => {
  it('in-place op whose broadcast shape differs from self', () => {
    const err = expectCode(() => zeros(2).add_(zeros(2, 2)), 'E_INPLACE_BROADCAST', {
      op: 'add_',
      arg: 'self',
      cls: E.InplaceBroadcastError,
      says: ["output with shape [2] doesn't match the broadcast shape [2, 2]", 'got [2]', 'expected [2, 2]'],
    });
    namesGotExpected(err);
  });
});

describe('E_INPLACE_VERSION', () => {
  it('a tensor saved for backward, then modified in place', () => {
    const x = tensor([1, 2, 3], { dtype: 'float64', requiresGrad: true });
    const a = x.exp();
    a.add_(1);
    const err = expectCode(() => a.sum().backward(), 'E_INPLACE_VERSION', {
      op: 'ExpBackward0',
      cls: E.InplaceVersionError,
    });
    expect(err.message).toMatch(
      /^ExpBackward0: one of the variables needed for gradient computation has been modified by an inplace operation/,
    );
    expect(err.message).toMatch(/got version 1; expected version 0 \[E_INPLACE_VERSION\]$/);
  });
});

describe('E_GRAPH_FREED and E_AUTOGRAD', () => {
  it('backward twice without retainGraph; in-place on a leaf that requires grad', () => {
    const x = tensor([1, 2], { dtype: 'float64', requiresGrad: true });
    const y = x.exp().sum();
    y.backward();
    expectCode(() => y.backward(), 'E_GRAPH_FREED', {
      op: 'SumBackward0',
      cls: E.GraphFreedError,
      says: ['retainGraph'],
    });
    expectCode(() => x.add_(1), 'E_AUTOGRAD', {
      op: 'add_',
      arg: 'self',
      cls: E.AutogradError,
      says: ['leaf Variable'],
    });
  });
});

describe('E_INTERNAL_OVERLAP', () => {
  it('in-place op on an expanded tensor', () => {
    const err = expectCode(() => tensor([1]).expand(3).add_(1), 'E_INTERNAL_OVERLAP', {
      op: 'add_',
      arg: 'self',
      cls: E.InternalOverlapError,
      says: [
        'more than one element of the written-to tensor refers to a single memory location',
        'got strides [0]',
      ],
    });
    namesGotExpected(err);
    // fill_ is idempotent: PyTorch 1.13 fills an expanded self (recorded by the golden oracle), and so does this.
    const filled = zeros(1, 3);
    filled.expand(2, 3).fill_(7);
    expect([...(filled.storage.data as Float32Array)]).toEqual([7, 7, 7]);
    expectCode(() => zeros(1).expand(2).copy_(zeros(2)), 'E_INTERNAL_OVERLAP', { op: 'copy_' });
    expectCode(() => T.torch.add(zeros(2), 1, { out: zeros(1).expand(2) }), 'E_INTERNAL_OVERLAP', {
      op: 'add',
    });
  });
  it('an input partially overlapping the written-to tensor (verified with PyTorch 1.13)', () => {
    const a = tensor([
      [1, 2],
      [3, 4],
    ]);
    namesGotExpected(
      expectCode(() => a.add_(a.t()), 'E_INTERNAL_OVERLAP', {
        op: 'add_',
        arg: 'other',
        says: [
          'some elements of the input tensor and the written-to tensor refer to a single memory location',
        ],
      }),
    );
    const b = T.torch.arange(6, { dtype: 'float32' });
    expectCode(() => T.getitem(b, '1:').add_(T.getitem(b, ':-1')), 'E_INTERNAL_OVERLAP', { op: 'add_' });
    expectCode(() => T.torch.add(T.getitem(b, ':3'), 1, { out: T.getitem(b, '1:4') }), 'E_INTERNAL_OVERLAP', {
      op: 'add',
      arg: 'self',
    });
    expectCode(() => T.getitem(b, '1:').copy_(T.getitem(b, ':-1')), 'E_INTERNAL_OVERLAP', {
      op: 'copy_',
      arg: 'src',
    });
    // Full overlap (the same elements) and disjoint halves are fine.
    expect(b.add_(b).tolist()).toEqual([0, 2, 4, 6, 8, 10]);
    expect(T.getitem(b, ':3').mul_(T.getitem(b, '3:')).tolist()).toEqual([0, 16, 40]);
    expect(T.torch.add(b, 1, { out: b }).tolist()).toEqual([1, 17, 41, 7, 9, 11]);
  });
});

describe('E_ZERO_DIVISION', () => {
  it('integer div with rounding_mode floor / trunc by zero', () => {
    for (const mode of ['floor', 'trunc']) {
      const err = expectCode(
        () => T.torch.div(tensor([1, 2]), tensor([1, 0]), { rounding_mode: mode }),
        'E_ZERO_DIVISION',
        {
          op: 'div',
          arg: 'other',
          cls: E.ZeroDivisionError,
          says: ['integer division by zero', 'got 0', 'expected a nonzero divisor'],
        },
      );
      namesGotExpected(err);
      expectCode(
        () => T.torch.div(tensor([1], { dtype: 'int32' }), 0, { rounding_mode: mode }),
        'E_ZERO_DIVISION',
        { op: 'div' },
      );
    }
  });
  it('remainder and fmod by an integer zero', () => {
    expectCode(() => T.torch.remainder(tensor([1]), 0), 'E_ZERO_DIVISION', { op: 'remainder' });
    expectCode(
      () => T.torch.remainder(tensor([1], { dtype: 'int16' }), tensor([0], { dtype: 'int16' })),
      'E_ZERO_DIVISION',
      { op: 'remainder' },
    );
    expectCode(() => T.torch.fmod(tensor([1]), 0), 'E_ZERO_DIVISION', { op: 'fmod' });
  });
  it('an integral tensor to a negative Python int power', () => {
    expectCode(() => T.torch.pow(tensor([2]), -1), 'E_ZERO_DIVISION', {
      op: 'pow',
      arg: 'exponent',
      says: ['Integers to negative integer powers are not allowed.'],
    });
  });
  it('float division by zero is IEEE, not an error', () => {
    expect(T.torch.div(tensor([1.5]), 0).tolist()).toEqual([Number.POSITIVE_INFINITY]);
    expect(T.torch.div(tensor([1.5]), 0, { rounding_mode: 'floor' }).tolist()).toEqual([
      Number.POSITIVE_INFINITY,
    ]);
  });
});

describe('E_RESULT_TYPE', () => {
  it('int_tensor.add_(1.5)', () => {
    const err = expectCode(() => tensor([1, 2]).add_(1.5), 'E_RESULT_TYPE', {
      op: 'add_',
      arg: 'self',
      cls: E.ResultTypeError,
      says: [
        "result type Float can't be cast to the desired output type Long",
        'got int64',
        'expected a dtype float32 can be cast to',
      ],
    });
    namesGotExpected(err);
  });
  it('out= with a dtype the result cannot be cast to', () => {
    namesGotExpected(
      expectCode(
        () => T.torch.add(tensor([1.5]), tensor([1.5]), { out: zeros(1, { dtype: 'int32' }) }),
        'E_RESULT_TYPE',
        {
          op: 'add',
          arg: 'out',
          says: ["result type Float can't be cast to the desired output type Int"],
        },
      ),
    );
    expectCode(() => T.torch.add(tensor([1]), 1, { out: zeros(1, { dtype: 'bool' }) }), 'E_RESULT_TYPE', {
      says: ["result type Long can't be cast to the desired output type Bool"],
    });
    expectCode(() => T.torch.mul(tensor([T.complex(1, 1)]), 2, { out: zeros(1) }), 'E_RESULT_TYPE', {
      says: ['ComplexFloat'],
    });
  });
});
