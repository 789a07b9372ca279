/**
 * The argument checks of the gather pads (reflection_pad{1,2,3}d, replication_pad{1,2,3}d, _pad_circular) with
 * PyTorch 1.13's messages, and each output dim's source-index map (`PadDim`, shared by the cpu and webgpu
 * kernels and the derivative).
 */
import type { PadDim } from '../../../backends/webgpu/index.ts';
import { InvalidArgumentError, ShapeMismatchError, type Tensor } from '../../../core/index.ts';
import { tensorTypeName } from '../embedding/index.ts';

export type GatherKind = 'reflect' | 'replicate' | 'circular';

/** The (left, right) pads per dim of a `rank`-dim tensor from a pad list (last dim first); 0 for the rest. */
export function padPairs(rank: number, pad: readonly number[]): [number, number][] {
  return Array.from({ length: rank }, (_, d) => {
    const k = rank - 1 - d;
    return 2 * k < pad.length ? [pad[2 * k], pad[2 * k + 1]] : [0, 0];
  });
}

const invalid = (op: string, message: string, got: unknown, expected: string) =>
  new InvalidArgumentError(message, { op, arg: 'padding', got, expected });

/** Batched (k + 2 dims) or not (k + 1); `strict`: every dim but the batch dim must be non-empty. */
function checkDims(op: string, kind: GatherKind, k: number, self: Tensor): void {
  const nd = self.dim();
  const batched = nd === k + 2;
  const nonEmpty = (from: number) => self.shape.slice(from).every((n) => n !== 0);
  // reflection_pad1d/2d only ask the dims after the first to be non-empty (an empty channel dim passes).
  const loose = kind === 'reflect' && k < 3;
  const ok = (nd === k + 1 || batched) && nonEmpty(loose || batched ? 1 : 0);
  if (ok) return;
  const shape = `[${self.shape.join(', ')}]`;
  const message = loose
    ? `${k + 1}D or ${k + 2}D (batch mode) tensor expected for input, but got: [ ${tensorTypeName(self.dtype)}{${self.shape.join(',')}} ]`
    : `Expected ${k + 1}D or ${k + 2}D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${shape}`;
  throw new ShapeMismatchError(message, {
    op,
    arg: 'self',
    got: shape,
    expected: `${k + 1}-D or ${k + 2}-D`,
  });
}

/** reflection_pad{k}d / replication_pad{k}d: the checks, then the pads per dim of self. */
export function checkGatherPad(
  kind: 'reflect' | 'replicate',
  k: number,
  self: Tensor,
  pad: readonly number[],
): [number, number][] {
  const op = `${kind === 'reflect' ? 'reflection' : 'replication'}_pad${k}d`;
  if (pad.length !== 2 * k)
    throw invalid(op, `padding size is expected to be ${2 * k}`, pad.length, `${2 * k}`);
  checkDims(op, kind, k, self);
  const nd = self.dim();
  const pairs = padPairs(nd, pad);
  if (kind === 'reflect')
    for (let i = 0; i < k; i++) {
      const d = nd - 1 - i;
      const [l, r] = pairs[d];
      const n = self.shape[d];
      if (l >= n || r >= n)
        throw invalid(
          op,
          `Argument #${4 + 2 * i}: Padding size should be less than the corresponding input dimension, but got: padding (${l}, ${r}) at dimension ${d} of input ${k === 2 ? nd : `[${self.shape.join(', ')}]`}`,
          [l, r],
          `less than ${n}`,
        );
    }
  const out = self.shape.map((n, d) => n + pairs[d][0] + pairs[d][1]);
  const w = out[nd - 1];
  if (k === 1 && w < 1)
    throw invalid(
      op,
      kind === 'reflect'
        ? `2input (W: ${self.shape[nd - 1]})is too small. Calculated output W: ${w}`
        : `input (W: ${self.shape[nd - 1]}) is too small. Calculated output W: ${w}`,
      w,
      'an output width of at least 1',
    );
  const negative = out.find((n) => n < 0);
  if (negative !== undefined)
    throw invalid(
      op,
      `Trying to create tensor with negative dimension ${negative}: [${out.join(', ')}]`,
      negative,
      'non-negative output sizes',
    );
  return pairs;
}

/** Reflection and replication read index i - left of the input (reflected or clamped into it). */
export const gatherDims = (pairs: readonly [number, number][], self: Tensor): PadDim[] =>
  pairs.map(([l], d) => ({ a: l, n: self.shape[d], c0: 0, m: self.shape[d] }));

/**
 * _pad_circular: negative pads crop first; the cropped window [c0, c0 + m) then wraps around (PyTorch copies
 * the window's ends into the pads). N and C are never padded.
 */
export function circularDims(self: Tensor, pad: readonly number[]): PadDim[] {
  const op = '_pad_circular';
  const nd = self.dim();
  if (pad.length + 4 !== 2 * nd)
    throw invalid(
      op,
      `Invalid padding size, expected ${2 * (nd - 2)} but got ${pad.length}`,
      pad.length,
      `${2 * (nd - 2)}`,
    );
  const pairs = padPairs(nd, pad);
  return self.shape.map((n, d) => {
    const [l, r] = pairs[d];
    if (d >= 2) {
      if (l > n || r > n)
        throw invalid(op, 'Padding value causes wrapping around more than once.', [l, r], `at most ${n}`);
      if (n + l + r < 0)
        throw invalid(op, 'Negative padding value is resulting in an empty dimension', [l, r], 'a size >= 0');
    }
    const c0 = Math.max(-l, 0);
    const m = n - c0 - Math.max(-r, 0);
    // A pad wider than the cropped window would copy from the pad itself: PyTorch's copy_ refuses the overlap.
    if (d >= 2 && (l > m || r > m))
      throw invalid(
        op,
        'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.',
        [l, r],
        `pads of at most ${m} (the cropped size)`,
      );
    return { a: Math.max(l, 0), n, c0, m };
  });
}
