/**
 * opcheck on a custom op: myops::scale_shift passes all four checks (schema, autograd registration, fake,
 * compile); each injected fault fails exactly the check that must catch it, in words that say what was found: a
 * kernel writing an input its schema does not mark mutable, an output aliasing an input the schema declares new,
 * a fake kernel with the wrong shape, a wrong backward, a differentiable op without one.
 */
import { describe, expect, test } from 'vitest';
import { OpcheckError, type OpcheckName, opcheck } from '../../src/oracles/index.ts';
import { callOp, library, type Tensor, tensor } from '../../src/runtime/index.ts';
import { defineScaleShift, empty, scaleShiftCpu } from './myops_helpers.ts';

defineScaleShift();

const x = () =>
  tensor(
    [
      [0.5, -1.25, 2],
      [3, 0.75, -0.5],
    ],
    { dtype: 'float32' },
  );
const SAMPLES = [{ args: [x()] }, { args: [callOp('t', [x()]), 3], kwargs: { shift: -1 } }];

/** Defines `myops::<name>` like scale_shift, then lets `fault` replace one of its registrations. */
function variant(name: string, fault: 'write' | 'alias' | 'fake' | 'backward' | 'no_backward'): string {
  const op = `myops::${name}`;
  library.define(`${op}(Tensor x, float scale=2.0, float shift=1.0) -> Tensor`);
  library.impl(
    op,
    'cpu',
    fault === 'write'
      ? (t: Tensor, scale: number, shift: number) => {
          const out = scaleShiftCpu(t, scale, shift);
          (t.storage.data as Float32Array)[t.storageOffset] = 42; // writes its input
          return out;
        }
      : fault === 'alias'
        ? (t: Tensor) => t // returns its input, the schema says a new tensor
        : scaleShiftCpu,
  );
  library.registerFake(op, (t: Tensor) =>
    empty(fault === 'fake' ? [t.numel] : t.shape, { dtype: t.dtype, device: 'meta' }),
  );
  if (fault !== 'no_backward')
    library.registerAutograd(
      op,
      (ctx, g) => [
        callOp('mul', [g, fault === 'backward' ? 2 * (ctx.scale as number) : ctx.scale]) as Tensor,
      ],
      {
        setupContext: (ctx, inputs) => {
          ctx.scale = inputs[1];
        },
      },
    );
  return op;
}

const failed = async (op: string) =>
  (await opcheck(op, SAMPLES, { raiseException: false })).filter((r) => r.failure !== null);

describe('opcheck', () => {
  test('a correct custom op passes all four checks', async () => {
    const report = await opcheck('myops::scale_shift', SAMPLES);
    expect(report.map((r) => [r.check, r.failure])).toEqual([
      ['schema', null],
      ['autograd_registration', null],
      ['fake', null],
      ['compile', null],
    ]);
  });

  test('built-in ops pass the same checks (add with alpha, softmax over a transposed input)', async () => {
    const y = tensor([1, 2, 3], { dtype: 'float32' });
    for (const [op, samples] of [
      ['add', [{ args: [x(), y], kwargs: { alpha: 2 } }]],
      ['softmax', [{ args: [callOp('t', [x()]), 0] }]],
    ] as const) {
      const report = await opcheck(op, samples);
      expect(report.every((r) => r.failure === null)).toBe(true);
    }
  });

  test.each<[string, Parameters<typeof variant>[1], OpcheckName[], RegExp]>([
    ['writes_input', 'write', ['schema'], /wrote an input its schema does not mark mutable \(args\[0\]/],
    // Returning the (transposed) input also gives the fake check other strides than the real kernel's.
    ['aliases_input', 'alias', ['schema', 'fake'], /output 0 shares the storage of args\[0\]/],
    ['fake_shape', 'fake', ['fake'], /the fake kernel gives float32\[6\].*the real one float32\[2, 3\]/],
    ['wrong_backward', 'backward', ['autograd_registration'], /backward disagrees with finite differences/],
    ['no_backward', 'no_backward', ['autograd_registration'], /has no backward: register one/],
  ])('fault %s (%s) fails the checks %j', async (name, fault, checks, why) => {
    const op = variant(name, fault);
    const bad = await failed(op);
    expect(bad.map((r) => r.check)).toEqual(checks);
    expect(bad[0].failure).toMatch(why);
  });

  test('by default a failing check raises E_OPCHECK with the whole report', async () => {
    const op = variant('raises', 'fake');
    const err = await opcheck(op, SAMPLES).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpcheckError);
    expect(err).toMatchObject({ code: 'E_OPCHECK' });
    expect((err as OpcheckError).report.map((r) => r.check)).toEqual([
      'schema',
      'autograd_registration',
      'fake',
      'compile',
    ]);
    expect((err as Error).message).toMatch(/^opcheck\(myops::raises\): fake: sample 0: /);
  });
});
