/**
 * Every error code the runtime can raise today, triggered through the public API: the `code` is stable, the
 * class is the matching OpgateError subclass, and the message names the op and what it got / expected.
 */
import { describe, expect, it } from 'vitest';
import * as core from '../../src/runtime/core/index.ts';
import * as T from '../../src/runtime/index.ts';

const { tensor, zeros } = T;
const E = core;

interface Want {
  op?: string;
  arg?: string;
  /** Substrings the message must contain. */
  says?: (string | RegExp)[];
  cls?: new (...args: never[]) => T.OpgateError;
}

/** Runs `fn`, expects an OpgateError with `code`, and checks that the message names op / got / expected. */
function expectCode(fn: () => unknown, code: T.ErrorCode, want: Want = {}): T.OpgateError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(T.OpgateError);
  const err = caught as T.OpgateError;
  expect(err.code).toBe(code);
  expect(err.message.endsWith(`[${code}]`)).toBe(true);
  if (want.cls) expect(err).toBeInstanceOf(want.cls);
  if (want.op !== undefined) {
    expect(err.op).toBe(want.op);
    expect(err.message.startsWith(`${want.op}: `)).toBe(true);
  }
  if (want.arg !== undefined) {
    expect(err.arg).toBe(want.arg);
    expect(err.message).toContain(`argument '${want.arg}'`);
  }
  for (const s of want.says ?? []) expect(err.message).toMatch(s);
  return err;
}

/** The message carries both what the call got and what was expected. */
function namesGotExpected(err: T.OpgateError): void {
  expect(err.got).toBeDefined();
  expect(err.expected).toBeDefined();
  expect(err.message).toMatch(/; got .+; expected .+ \[E_/);
}

describe('E_SHAPE_MISMATCH', () => {
  it('broadcasting two incompatible shapes', () => {
    const err = expectCode(() => T.add(zeros(2, 3), zeros(4, 3)), 'E_SHAPE_MISMATCH', {
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

describe('E_DTYPE_UNSUPPORTED', () => {
  it('bitwise_and on float tensors', () => {
    const err = expectCode(() => T.bitwise_and(tensor([1.5]), tensor([2.5])), 'E_DTYPE_UNSUPPORTED', {
      op: 'bitwise_and',
      cls: E.DTypeUnsupportedError,
      says: [`"bitwise_and" not implemented for 'Float'`, 'got float32', 'expected a dtype of kind bool/int'],
    });
    namesGotExpected(err);
  });
  it('sub on two bool tensors (PyTorch message)', () => {
    expectCode(() => T.sub(tensor([true]), tensor([false])), 'E_DTYPE_UNSUPPORTED', {
      op: 'sub',
      says: ['Subtraction, the `-` operator, with two bool tensors is not supported', 'got bool'],
    });
  });
  it('neg on bool, relu on complex, atan2 on int64 promotes but remainder refuses complex', () => {
    expectCode(() => T.neg(tensor([true])), 'E_DTYPE_UNSUPPORTED', { op: 'neg', says: ['Negation'] });
    expectCode(() => T.relu(tensor([T.complex(1, 1)])), 'E_DTYPE_UNSUPPORTED', {
      op: 'relu',
      says: ['ComplexFloat'],
    });
    expectCode(() => T.remainder(tensor([T.complex(1, 1)]), 2), 'E_DTYPE_UNSUPPORTED', { op: 'remainder' });
    expect(T.atan2(tensor([1]), tensor([1])).dtype).toBe('float32');
  });
  it('in-place and out= variants check the dtype too', () => {
    expectCode(() => tensor([1.5]).bitwise_and_(tensor([1.5])), 'E_DTYPE_UNSUPPORTED', {
      op: 'bitwise_and_',
    });
    expectCode(() => T.bitwise_or(tensor([1.5]), tensor([1.5]), { out: zeros(1) }), 'E_DTYPE_UNSUPPORTED', {
      op: 'bitwise_or',
    });
  });
});

describe('E_NOT_IMPLEMENTED', () => {
  it('a dispatch key with no kernel: a CPU-only test op called on a meta tensor', () => {
    const entry = T.operatorTable.def('_errors_test_cpu_only(Tensor self) -> Tensor', { family: 'test' });
    entry.kernels.set(T.DispatchKey.CPU, (_ks, args) => args.self);
    const x = zeros(2);
    expect(T.callOp('_errors_test_cpu_only', [x])).toBe(x);
    const err = expectCode(
      () => T.callOp('_errors_test_cpu_only', [zeros(2, { device: 'meta' })]),
      'E_NOT_IMPLEMENTED',
      {
        op: '_errors_test_cpu_only',
        arg: 'dispatch key',
        cls: E.NotImplementedError,
        says: [
          "could not run '_errors_test_cpu_only' with arguments from the 'Meta' backend",
          'got Meta (dtype float32)',
          'expected one of the registered kernels: CPU',
        ],
      },
    );
    namesGotExpected(err);
  });
  it('reading values of a meta tensor, copying data out of meta', () => {
    expectCode(() => zeros(2, { device: 'meta' }).tolist(), 'E_NOT_IMPLEMENTED', {
      op: 'tolist',
      says: ['meta'],
    });
    expectCode(() => zeros(2, { device: 'meta' }).to('cpu'), 'E_NOT_IMPLEMENTED', { op: 'to' });
    expectCode(() => zeros(2).copy_(zeros(2, { device: 'meta' })), 'E_NOT_IMPLEMENTED', { op: 'copy_' });
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
    expectCode(() => zeros(1, 3).expand(2, 3).fill_(1), 'E_INTERNAL_OVERLAP', { op: 'fill_' });
    expectCode(() => zeros(1).expand(2).copy_(zeros(2)), 'E_INTERNAL_OVERLAP', { op: 'copy_' });
    expectCode(() => T.add(zeros(2), 1, { out: zeros(1).expand(2) }), 'E_INTERNAL_OVERLAP', { op: 'add' });
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
    const b = T.arange(6, { dtype: 'float32' });
    expectCode(() => T.getitem(b, '1:').add_(T.getitem(b, ':-1')), 'E_INTERNAL_OVERLAP', { op: 'add_' });
    expectCode(() => T.add(T.getitem(b, ':3'), 1, { out: T.getitem(b, '1:4') }), 'E_INTERNAL_OVERLAP', {
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
    expect(T.add(b, 1, { out: b }).tolist()).toEqual([1, 17, 41, 7, 9, 11]);
  });
});

describe('E_ZERO_DIVISION', () => {
  it('integer div with rounding_mode floor / trunc by zero', () => {
    for (const mode of ['floor', 'trunc']) {
      const err = expectCode(
        () => T.div(tensor([1, 2]), tensor([1, 0]), { rounding_mode: mode }),
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
        () => T.div(tensor([1], { dtype: 'int32' }), 0, { rounding_mode: mode }),
        'E_ZERO_DIVISION',
        { op: 'div' },
      );
    }
  });
  it('remainder and fmod by an integer zero', () => {
    expectCode(() => T.remainder(tensor([1]), 0), 'E_ZERO_DIVISION', { op: 'remainder' });
    expectCode(
      () => T.remainder(tensor([1], { dtype: 'int16' }), tensor([0], { dtype: 'int16' })),
      'E_ZERO_DIVISION',
      { op: 'remainder' },
    );
    expectCode(() => T.fmod(tensor([1]), 0), 'E_ZERO_DIVISION', { op: 'fmod' });
  });
  it('an integral tensor to a negative Python int power', () => {
    expectCode(() => T.pow(tensor([2]), -1), 'E_ZERO_DIVISION', {
      op: 'pow',
      arg: 'exponent',
      says: ['Integers to negative integer powers are not allowed.'],
    });
  });
  it('float division by zero is IEEE, not an error', () => {
    expect(T.div(tensor([1.5]), 0).tolist()).toEqual([Number.POSITIVE_INFINITY]);
    expect(T.div(tensor([1.5]), 0, { rounding_mode: 'floor' }).tolist()).toEqual([Number.POSITIVE_INFINITY]);
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
        () => T.add(tensor([1.5]), tensor([1.5]), { out: zeros(1, { dtype: 'int32' }) }),
        'E_RESULT_TYPE',
        {
          op: 'add',
          arg: 'out',
          says: ["result type Float can't be cast to the desired output type Int"],
        },
      ),
    );
    expectCode(() => T.add(tensor([1]), 1, { out: zeros(1, { dtype: 'bool' }) }), 'E_RESULT_TYPE', {
      says: ["result type Long can't be cast to the desired output type Bool"],
    });
    expectCode(() => T.mul(tensor([T.complex(1, 1)]), 2, { out: zeros(1) }), 'E_RESULT_TYPE', {
      says: ['ComplexFloat'],
    });
  });
});

describe('E_INVALID_ARGUMENT', () => {
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
      expectCode(() => T.arange(0, 5, 0), 'E_INVALID_ARGUMENT', { op: 'arange', arg: 'step' }),
    );
    namesGotExpected(
      expectCode(() => T.arange(0, 5, -1), 'E_INVALID_ARGUMENT', { op: 'arange', arg: 'end' }),
    );
    expectCode(() => T.linspace(0, 1, -1), 'E_INVALID_ARGUMENT', { op: 'linspace', arg: 'steps' });
  });
  it('a float alpha for integral tensors (PyTorch message)', () => {
    namesGotExpected(
      expectCode(() => T.add(tensor([1]), tensor([2]), { alpha: 0.5 }), 'E_INVALID_ARGUMENT', {
        op: 'add',
        arg: 'alpha',
        says: ['For integral input tensors, argument alpha must not be a floating point number.'],
      }),
    );
    expectCode(() => T.sub(tensor([1.5]), tensor([2.5]), { alpha: T.complex(0, 1) }), 'E_INVALID_ARGUMENT', {
      op: 'sub',
      says: ['must not be a complex number'],
    });
    expectCode(() => T.add(tensor([1]), tensor([2]), { alpha: true }), 'E_INVALID_ARGUMENT', {
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

describe('E_NO_OVERLOAD', () => {
  it('arguments that fit no schema list every overload and why', () => {
    const err = expectCode(() => T.callOp('add', ['a', 'b']), 'E_NO_OVERLOAD', {
      op: 'add',
      cls: E.NoOverloadError,
      says: [
        'received an invalid combination of arguments',
        'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor',
        "argument 'self': expected Tensor, got string",
      ],
    });
    namesGotExpected(err);
  });
  it('an unexpected keyword, a missing argument, too many positionals', () => {
    expectCode(() => T.add(zeros(1), zeros(1), { bogus: 1 }), 'E_NO_OVERLOAD', {
      op: 'add',
      says: ["unexpected keyword argument 'bogus'"],
    });
    expectCode(() => T.callOp('add', [zeros(1)]), 'E_NO_OVERLOAD', {
      says: ["missing required argument 'other'"],
    });
    expectCode(() => T.callOp('neg', [zeros(1), zeros(1)]), 'E_NO_OVERLOAD', {
      says: ['takes 1 positional arguments but 2 were given'],
    });
    expectCode(() => T.callOp('add', [zeros(1), zeros(1)], { alpha: 1, other: zeros(1) }), 'E_NO_OVERLOAD', {
      says: ["multiple values for argument 'other'"],
    });
  });
});

describe('E_UNKNOWN_OP', () => {
  it('callOp with a name that is not in the table', () => {
    const err = expectCode(() => T.callOp('definitely_not_an_op', []), 'E_UNKNOWN_OP', {
      cls: E.UnknownOpError,
      says: ['unknown operator', 'got definitely_not_an_op', 'expected an op name from the operator table'],
    });
    namesGotExpected(err);
    expectCode(() => T.operatorTable.get('add.no_such_overload'), 'E_UNKNOWN_OP', {
      says: ['add.no_such_overload'],
    });
  });
});

describe('E_DEVICE_MISMATCH', () => {
  it('cpu + meta', () => {
    const err = expectCode(() => T.add(zeros(2, { device: 'meta' }), zeros(2)), 'E_DEVICE_MISMATCH', {
      op: 'add',
      arg: 'other',
      cls: E.DeviceMismatchError,
      says: ['Expected all tensors to be on the same device', 'got cpu', 'expected meta'],
    });
    namesGotExpected(err);
    expectCode(() => zeros(2).add_(zeros(2, { device: 'meta' })), 'E_DEVICE_MISMATCH', { op: 'add_' });
  });
  it('a 0-d cpu tensor may join a meta tensor (like a CPU scalar in PyTorch)', () => {
    const r = T.add(zeros(2, { device: 'meta' }), tensor(1.5));
    expect(r.device).toBe('meta');
    expect(r.shape).toEqual([2]);
  });
});

describe('E_SCHEMA_PARSE', () => {
  it('a malformed schema', () => {
    const err = expectCode(() => T.parseSchema('foo(bar'), 'E_SCHEMA_PARSE', {
      cls: E.SchemaParseError,
      says: ['cannot parse schema', 'got foo(bar'],
    });
    expect(err.got).toBe('foo(bar');
    expectCode(() => T.parseSchema('foo(Banana x) -> Tensor'), 'E_SCHEMA_PARSE', {
      says: ["unknown type 'Banana'"],
    });
    expectCode(
      () => T.operatorTable.def('broken(Tensor self -> Tensor', { family: 'test' }),
      'E_SCHEMA_PARSE',
    );
  });
});

describe('OpgateError', () => {
  it('every code has a class whose name and code match', () => {
    const classes: [new (s: string) => T.OpgateError, T.ErrorCode][] = [
      [E.ShapeMismatchError, 'E_SHAPE_MISMATCH'],
      [E.DimOutOfRangeError, 'E_DIM_OUT_OF_RANGE'],
      [E.DTypeUnsupportedError, 'E_DTYPE_UNSUPPORTED'],
      [E.NotImplementedError, 'E_NOT_IMPLEMENTED'],
      [E.InvalidViewError, 'E_INVALID_VIEW'],
      [E.InplaceBroadcastError, 'E_INPLACE_BROADCAST'],
      [E.ZeroDivisionError, 'E_ZERO_DIVISION'],
      [E.ResultTypeError, 'E_RESULT_TYPE'],
      [E.InvalidArgumentError, 'E_INVALID_ARGUMENT'],
      [E.IndexOutOfRangeError, 'E_INDEX_OUT_OF_RANGE'],
      [E.NoOverloadError, 'E_NO_OVERLOAD'],
      [E.UnknownOpError, 'E_UNKNOWN_OP'],
      [E.DeviceMismatchError, 'E_DEVICE_MISMATCH'],
      [E.SchemaParseError, 'E_SCHEMA_PARSE'],
      [E.InternalOverlapError, 'E_INTERNAL_OVERLAP'],
      [E.InplaceVersionError, 'E_INPLACE_VERSION'],
      [E.GraphFreedError, 'E_GRAPH_FREED'],
      [E.AutogradError, 'E_AUTOGRAD'],
    ];
    for (const [Cls, c] of classes) {
      const err = new Cls('boom');
      expect(err).toBeInstanceOf(Error);
      expect(err).toBeInstanceOf(T.OpgateError);
      expect(err.code).toBe(c);
      expect(err.name).toBe(Cls.name);
      expect(err.message).toBe(`boom [${c}]`);
    }
  });

  it('formats op, argument, got and expected', () => {
    const err = new E.ShapeMismatchError('sizes differ', {
      op: 'cat',
      arg: 'tensors',
      got: [2, 3n],
      expected: 'equal sizes',
    });
    expect(err.message).toBe(
      "cat: sizes differ; argument 'tensors'; got [2, 3]; expected equal sizes [E_SHAPE_MISMATCH]",
    );
    expect(err.got).toEqual([2, 3n]);
  });
});
