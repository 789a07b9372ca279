/**
 * Random ops. `uniform_` is the one op that draws (from `generator=` or the default generator, on the host, then
 * uploaded for webgpu), so the compiler records every draw as a graph node and a replay draws again; dropout and
 * its feature / alpha variants and rrelu are written over it in differentiable ops (autograd records the
 * decomposition: the mask is a constant of the backward), as aten's _dropout_impl and rrelu_with_noise are.
 */

import { defineDerivative } from '../../autograd/index.ts';
import {
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  type Generator,
  getDefaultGenerator,
  InvalidArgumentError,
  type Scalar,
  type Tensor,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../dispatch/index.ts';
import { writeSequence } from '../factories/index.ts';
import { asScalar, notImplementedFor, requireFloating, callTensor as t } from '../op_helpers.ts';
import { defineOp } from '../structured.ts';

export const RANDOM_API = {
  uniform_: 'method',
  dropout: 'function',
  dropout_: 'function',
  feature_dropout: 'function',
  feature_dropout_: 'function',
  feature_alpha_dropout: 'function',
  feature_alpha_dropout_: 'function',
  rrelu: 'function',
  rrelu_: 'function',
} as const satisfies ApiDecl;

/** Significand bits a uniform draw fills per dtype (at::uniform_real_distribution's `digits`). */
const DIGITS: Partial<Record<DType, number>> = { float16: 11, bfloat16: 8, float32: 24, float64: 53 };

/** One uniform [0, 1) value with the dtype's significand bits: never rounds up to 1. */
function uniform(g: Generator, digits: number): number {
  return digits === 53 ? g.random() : (g.nextUint32() & (2 ** digits - 1)) / 2 ** digits;
}

function digitsOf(dtype: DType, op: string): number {
  const digits = DIGITS[dtype];
  if (digits === undefined)
    throw notImplementedFor('check_uniform_bounds', dtype, op, 'dtype', 'a floating dtype');
  return digits;
}

/**
 * uniform_: the one op that draws. Row-major, one draw per element (two for float64), from + (to - from) * u; on
 * webgpu drawn on the host and uploaded, so the same seed gives the same tensor on every device.
 */
function uniformInPlace(a: BoundArgs): Tensor {
  const self = a.self as Tensor;
  const digits = digitsOf(self.dtype, 'uniform_');
  const from = a.from as number;
  const to = a.to as number;
  if (!(from <= to))
    throw new InvalidArgumentError(
      `uniform_ expects to return a [from, to) range, but found from=${from} > to=${to}`,
      {
        op: 'uniform_',
        arg: 'from',
        got: from,
        expected: `<= ${to}`,
      },
    );
  if (self.device !== 'meta') {
    const g = (a.generator as Generator | null | undefined) ?? getDefaultGenerator();
    const values = Float64Array.from({ length: self.numel }, () => from + (to - from) * uniform(g, digits));
    // writeSequence fills a whole storage from index 0: self only when it is exactly that (not a view at an
    // offset, x[1:].uniform_(), nor a view of a larger storage), else a fresh tensor copied in.
    const owns = self.isContiguous() && self.storageOffset === 0 && self.storage.numel === self.numel;
    const dense = owns ? self : t('empty', [self.shape], { dtype: self.dtype, device: self.device });
    writeSequence(dense, (i) => values[i]);
    if (dense !== self) t('copy_', [self, dense]);
  }
  self.bumpVersion();
  return self;
}

/** Uniform draws shaped like `like` (a view of the input), on its device: the tracer records the device as a ref. */
function drawsLike(like: Tensor, dtype: DType, from: number, to: number, generator: unknown = null): Tensor {
  const noise = t('empty_like', [like], { dtype, memory_format: 'contiguous_format' });
  return t('uniform_', [noise, from, to], { generator });
}

/** Draws in float32 (float64 for a float64 input): one dtype per input dtype, the same on every device. */
const noiseDType = (x: Tensor): DType => (x.dtype === 'float64' ? 'float64' : 'float32');

function checkP(p: number, op: string): void {
  if (!(p >= 0 && p <= 1))
    throw new InvalidArgumentError(`dropout probability has to be between 0 and 1, but got ${p}`, {
      op,
      arg: 'p',
      got: p,
      expected: 'a probability in [0, 1]',
    });
}

type Kind = 'dropout' | 'feature_dropout' | 'feature_alpha_dropout';
/** aten's alpha dropout constant: -selu's saturation value, -scale * alpha. */
const ALPHA = 1.7580993408473766;

/**
 * aten's _dropout_impl: input itself when p == 0, not training or empty; input * 0 when p == 1; else input times
 * a Bernoulli(1 - p) mask (per element, or per (batch, channel) for the feature variants) over 1 - p, or for
 * alpha dropout a * (input * mask + alpha * (1 - mask)) - a * alpha * (1 - p) ... written as aten computes it.
 */
function dropoutImpl(kind: Kind, x: Tensor, p: number, train: boolean, inplace: boolean): Tensor {
  const op = inplace ? `${kind}_` : kind;
  checkP(p, op);
  if (p === 0 || !train || x.numel === 0) return x;
  const feature = kind.startsWith('feature');
  if (feature && x.ndim < 2)
    throw new InvalidArgumentError('Feature dropout requires at least 2 dimensions in the input', {
      op,
      arg: 'input',
      got: x.ndim,
      expected: 'at least 2 dims',
    });
  const mul = (a: Tensor, b: unknown) => t(inplace ? 'mul_' : 'mul', [a, b]);
  if (p === 1) return mul(x, 0);
  if (DTYPE_INFO[x.dtype].kind !== 'float')
    throw new DTypeUnsupportedError(
      DTYPE_INFO[x.dtype].kind === 'complex'
        ? `"bernoulli_scalar_cpu_" not implemented for '${DTYPE_INFO[x.dtype].torchName}'`
        : `result type Float can't be cast to the desired output type ${DTYPE_INFO[x.dtype].torchName}`,
      { op, arg: 'input', got: x.dtype, expected: 'a floating dtype' },
    );
  // The feature variants draw once per (batch, channel): a [N, C, 1, ...] view of the input shapes the draws.
  let like = x;
  if (feature) for (let d = 2; d < x.ndim; d++) like = t('narrow', [like, d, 0, 1]);
  const u = drawsLike(like, noiseDType(x), 0, 1);
  const keep = t('to', [t('lt', [u, 1 - p]), x.dtype]);
  if (kind !== 'feature_alpha_dropout') return mul(x, t('div', [keep, 1 - p]));
  const a = 1 / Math.sqrt((ALPHA * ALPHA * p + 1) * (1 - p));
  const b = t('add', [t('mul', [t('sub', [keep, 1]), ALPHA * a]), ALPHA * a * p]);
  const scaled = mul(x, t('mul', [keep, a]));
  return inplace ? t('add_', [scaled, b]) : t('add', [scaled, b]);
}

/** rrelu: in training, x * r for x <= 0 with r ~ U(lower, upper) per element; otherwise leaky_relu((l + u) / 2). */
function rrelu(a: BoundArgs, inplace: boolean): Tensor {
  const x = a.self as Tensor;
  const op = inplace ? 'rrelu_' : 'rrelu';
  // A Scalar argument may arrive as a 0-dim tensor (python_arg_parser's rule): read it as a Scalar.
  const lower = asScalar(a.lower as Scalar | Tensor).toNumber();
  const upper = asScalar(a.upper as Scalar | Tensor).toNumber();
  if (lower > upper)
    throw new InvalidArgumentError('Lower bound should be less than or equal to the upper bound', {
      op,
      arg: 'lower',
      got: `${lower} > ${upper}`,
      expected: 'lower <= upper',
    });
  if (!a.training) return t(inplace ? 'leaky_relu_' : 'leaky_relu', [x, (lower + upper) / 2]);
  requireFloating(x, 'rrelu_with_noise_out_cpu', op);
  const r = t('to', [drawsLike(x, noiseDType(x), lower, upper, a.generator), x.dtype]);
  const noise = t('where', [t('le', [x, 0]), r, 1]);
  return t(inplace ? 'mul_' : 'mul', [x, noise]);
}

export function registerRandom(): void {
  defineOp({
    schema: 'uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)',
    tags: { family: 'random' },
    composite: uniformInPlace,
  });
  const tags = { family: 'random', decomposed: true } as const;
  for (const kind of ['dropout', 'feature_dropout', 'feature_alpha_dropout'] as const)
    for (const inplace of [false, true]) {
      const self = inplace ? 'Tensor(a!) self' : 'Tensor input';
      defineOp({
        schema: `${kind}${inplace ? '_' : ''}(${self}, float p, bool train) -> Tensor${inplace ? '(a!)' : ''}`,
        tags,
        composite: (a) =>
          dropoutImpl(
            kind,
            (inplace ? a.self : a.input) as Tensor,
            a.p as number,
            a.train as boolean,
            inplace,
          ),
      });
    }
  for (const inplace of [false, true])
    defineOp({
      schema: `rrelu${inplace ? '_(Tensor(a!) self' : '(Tensor self'}, Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, Generator? generator=None) -> Tensor${inplace ? '(a!)' : ''}`,
      tags,
      composite: (a) => rrelu(a, inplace),
    });
  // derivatives.yaml: self: zeros_like(grad). The draws replace self, so nothing flows to what self held.
  defineDerivative('uniform_', {
    name: 'UniformBackward0',
    saves: [],
    formula: (c) => [t('zeros_like', [c.grad])],
  });
  operatorTable.alias('nn.functional.rrelu', 'rrelu');
  operatorTable.declare(RANDOM_API);
  registerFunctionalDropouts();
}

/**
 * Python's F.dropout / dropout2d / dropout3d / feature_alpha_dropout (no aten schema of their own): p checked in
 * Python (a ValueError), then aten's dropout or feature variant, in place with inplace=True.
 */
function registerFunctionalDropouts(): void {
  const python = { family: 'random', decomposed: true, pythonOnly: true } as const;
  const wrappers = [
    ['dropout', 'dropout', true],
    ['dropout2d', 'feature_dropout', true],
    ['dropout3d', 'feature_dropout', true],
    ['feature_alpha_dropout', 'feature_alpha_dropout', false],
  ] as const;
  for (const [name, kind, training] of wrappers) {
    defineOp({
      // Tensor(a): the input itself comes back when p == 0 or not training (aten's schema leaves this out).
      schema: `_functional_${name}(Tensor(a) input, float p=0.5, bool training=${training ? 'True' : 'False'}, bool inplace=False) -> Tensor(a)`,
      tags: python,
      composite: (a) => {
        checkP(a.p as number, `nn.functional.${name}`);
        return t(a.inplace ? `${kind}_` : kind, [a.input, a.p, a.training]);
      },
    });
    operatorTable.alias(`nn.functional.${name}`, `_functional_${name}`);
  }
  operatorTable.declare(
    Object.fromEntries(wrappers.map(([name]) => [`_functional_${name}`, 'function'])) as ApiDecl,
  );
}
