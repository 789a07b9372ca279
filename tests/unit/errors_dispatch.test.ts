/**
 * Error codes the runtime raises, triggered through the public API: the `code` is stable, the class is the
 * matching OpgateError subclass, and the message names the op and what it got / expected. This file: dispatch
 * (missing kernels, overloads, unknown ops, devices), schema parsing, and the OpgateError classes themselves.
 */
import { describe, expect, it } from 'vitest';
import * as core from '../../src/runtime/core/index.ts';
import * as T from '../../src/runtime/index.ts';
import { expectCode, namesGotExpected } from './errors_helpers.ts';

const { tensor, zeros } = { ...T, ...T.torch };
const E = core;

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
    expectCode(() => T.torch.add(zeros(1), zeros(1), { bogus: 1 }), 'E_NO_OVERLOAD', {
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
    const err = expectCode(() => T.torch.add(zeros(2, { device: 'meta' }), zeros(2)), 'E_DEVICE_MISMATCH', {
      op: 'add',
      arg: 'other',
      cls: E.DeviceMismatchError,
      says: ['Expected all tensors to be on the same device', 'got cpu', 'expected meta'],
    });
    namesGotExpected(err);
    expectCode(() => zeros(2).add_(zeros(2, { device: 'meta' })), 'E_DEVICE_MISMATCH', { op: 'add_' });
  });
  it('a 0-d cpu tensor may join a meta tensor (like a CPU scalar in PyTorch)', () => {
    const r = T.torch.add(zeros(2, { device: 'meta' }), tensor(1.5));
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
      [E.NoAdapterError, 'E_NO_ADAPTER'],
      [E.SyncReadbackError, 'E_SYNC_READBACK'],
      [E.DuplicateOpError, 'E_DUPLICATE_OP'],
      [E.ReservedNamespaceError, 'E_RESERVED_NAMESPACE'],
      [E.SchemaMismatchError, 'E_SCHEMA_MISMATCH'],
      [E.DuplicateDeviceError, 'E_DUPLICATE_DEVICE'],
      [E.ReservedDeviceError, 'E_RESERVED_DEVICE'],
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
