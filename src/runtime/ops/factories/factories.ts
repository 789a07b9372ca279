/** The factory ops' registration (empty, zeros, ones, full, arange, linspace, eye, *_like, fill_) and their Python API. */
import {
  type DType,
  getDefaultDType,
  InvalidArgumentError,
  int,
  scalarDType,
  type Tensor,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, callOp, operatorTable } from '../../dispatch/index.ts';
import { asScalar } from '../op_helpers.ts';
import { defineOp } from '../structured.ts';
import { checkFill, create, fillTensor, OPTS, scalarArg, tags } from './create.ts';
import { registerRanges } from './ranges.ts';

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const FACTORY_API = {
  empty: 'function',
  zeros: 'function',
  ones: 'function',
  full: 'function',
  arange: 'function',
  linspace: 'function',
  eye: 'function',
  empty_like: 'function',
  zeros_like: 'function',
  ones_like: 'function',
  full_like: 'function',
  fill_: 'method',
  zero_: 'method',
} as const satisfies ApiDecl;

export function registerFactories(): void {
  const simple = (name: string, fill: number | null) => {
    const one = fill === null ? null : int(fill);
    const zero = name === 'zeros';
    defineOp({
      // PyTorch's overload is empty.memory_format; zeros/ones have no overload name.
      schema: `${name}${name === 'empty' ? '.memory_format' : ''}(SymInt[] size, *, ${OPTS}${name === 'empty' ? ', MemoryFormat? memory_format=None' : ''}) -> Tensor`,
      tags,
      composite: (a) =>
        create(
          a.size as number[],
          a,
          name,
          (a.dtype as DType | null) ?? getDefaultDType(),
          one,
          undefined,
          zero,
        ),
    });
    defineOp({
      schema: `${name}_like(Tensor self, *, ${OPTS}, MemoryFormat? memory_format=None) -> Tensor`,
      tags,
      composite: (a) => {
        const self = a.self as Tensor;
        return create(
          self.shape,
          a,
          `${name}_like`,
          (a.dtype as DType | null) ?? self.dtype,
          one,
          self,
          zero,
        );
      },
    });
  };
  simple('empty', null);
  simple('zeros', null);
  simple('ones', 1);

  defineOp({
    schema: `full(SymInt[] size, Scalar fill_value, *, ${OPTS}) -> Tensor`,
    tags,
    composite: (a) => {
      const v = scalarArg(a.fill_value, 'full', 'fill_value');
      return create(a.size as number[], a, 'full', (a.dtype as DType | null) ?? scalarDType(v.kind), v);
    },
  });
  defineOp({
    schema: `full_like(Tensor self, Scalar fill_value, *, ${OPTS}, MemoryFormat? memory_format=None) -> Tensor`,
    tags,
    composite: (a) => {
      const self = a.self as Tensor;
      return create(
        self.shape,
        a,
        'full_like',
        (a.dtype as DType | null) ?? self.dtype,
        scalarArg(a.fill_value, 'full_like', 'fill_value'),
        self,
      );
    },
  });
  registerRanges();
  const eye = (n: number, m: number, a: BoundArgs) => {
    if (n < 0)
      throw new InvalidArgumentError(`n must be greater or equal to 0, got ${n}`, {
        op: 'eye',
        arg: 'n',
        got: n,
        expected: '>= 0',
      });
    if (m < 0)
      throw new InvalidArgumentError(`m must be greater or equal to 0, got ${m}`, {
        op: 'eye',
        arg: 'm',
        got: m,
        expected: '>= 0',
      });
    const t = create([n, m], a, 'eye', (a.dtype as DType | null) ?? getDefaultDType(), null, undefined, true);
    if (t.device !== 'meta') {
      const diag = callOp('diagonal', [t]) as Tensor;
      fillTensor(diag, int(1));
    }
    return t;
  };
  defineOp({
    schema: `eye(SymInt n, *, ${OPTS}) -> Tensor`,
    tags,
    composite: (a) => eye(a.n as number, a.n as number, a),
  });
  defineOp({
    schema: `eye.m(SymInt n, SymInt m, *, ${OPTS}) -> Tensor`,
    tags,
    composite: (a) => eye(a.n as number, a.m as number, a),
  });
  defineOp({
    schema: 'fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => {
      const self = a.self as Tensor;
      // No internal-overlap check: filling is idempotent, so PyTorch fills an expanded self (fill_out disables
      // TensorIterator's overlap check); x.expand(2, 3).fill_(1) writes the shared elements.
      // A meta tensor has nothing to fill (and a meta value nothing to read).
      if (self.device !== 'meta') {
        const value = scalarArg(a.value, 'fill_', 'value');
        checkFill(value, self.dtype, 'fill_', 'value');
        fillTensor(self, value);
      }
      self.bumpVersion();
      return self;
    },
  });
  defineOp({
    // PyTorch's fill_.Tensor: a 0-dim value tensor, differentiable in the value (its gradient is the sum of
    // self's). A value the host can read and that needs no gradient fills as fill_.Scalar does (PyTorch reads it
    // with item()), an expanded self included. Otherwise copy_ broadcasts it into self: no read-back of a webgpu
    // value, and autograd records the copy (autograd/register.ts: DECOMPOSED).
    schema: 'fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => {
      const self = a.self as Tensor;
      const value = a.value as Tensor;
      if (value.ndim !== 0)
        throw new InvalidArgumentError(
          `fill_ only supports 0-dimension value tensor but got tensor with ${value.ndim} dimensions.`,
          { op: 'fill_', arg: 'value', got: `${value.ndim} dimensions`, expected: '0 dimensions' },
        );
      if (!value.requiresGrad && value.storage.data !== null) return callOp('fill_', [self, asScalar(value)]);
      return callOp('copy_', [self, value]);
    },
  });
  defineOp({
    schema: 'zero_(Tensor(a!) self) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => callOp('fill_', [a.self, 0]),
  });
  operatorTable.declare(FACTORY_API);
}
