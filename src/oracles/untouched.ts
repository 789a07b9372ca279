/**
 * What a call that raises must leave as it was: every tensor it was given (an in-place self, an out= tensor,
 * the other inputs) bit for bit, with its sizes, strides, storage offset, storage and version counter. A
 * kernel that writes part of its output and then raises (an integer division meeting a zero divisor, a
 * scatter meeting an out-of-range index) leaves a half-updated tensor behind that autograd and the user
 * cannot tell from an untouched one, so every check must come before the first write.
 */

import { Tensor } from './runtime_face.ts';
import { onHost, sameBytes, snapshot } from './sample_io.ts';

/** A tensor of a call with where it was passed (`self`, `args[1]`, `out`). */
export interface NamedTensor {
  readonly name: string;
  readonly t: Tensor;
}

interface TensorState extends NamedTensor {
  readonly storage: Tensor['storage'];
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
  readonly version: number;
  readonly bytes: Uint8Array | null;
}

/** Every tensor of `op(input, ...args, **kwargs)`, also inside lists (cat's tensors). */
export function callTensors(
  input: unknown,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): NamedTensor[] {
  const out: NamedTensor[] = [];
  const visit = (x: unknown, name: string) => {
    if (x instanceof Tensor) out.push({ name, t: x });
    else if (Array.isArray(x)) for (const [i, v] of x.entries()) visit(v, `${name}[${i}]`);
  };
  visit(input, 'input');
  for (const [i, a] of args.entries()) visit(a, `args[${i}]`);
  for (const [k, v] of Object.entries(kwargs)) visit(v, k);
  return out;
}

/** Raw storage bytes (read back from the device for webgpu tensors; null for meta). */
async function bytesOf(t: Tensor): Promise<Uint8Array | null> {
  const [host] = await onHost([t]);
  return snapshot(host);
}

export async function takeStates(ts: readonly NamedTensor[]): Promise<TensorState[]> {
  return Promise.all(
    ts.map(async ({ name, t }) => ({
      name,
      t,
      storage: t.storage,
      shape: [...t.shape],
      strides: [...t.strides],
      offset: t.storageOffset,
      version: t.version,
      bytes: await bytesOf(t),
    })),
  );
}

const same = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** The first tensor that is no longer as it was, and how; null when all are untouched. */
export async function firstChange(states: readonly TensorState[]): Promise<string | null> {
  for (const s of states) {
    const { t } = s;
    if (t.storage !== s.storage) return `${s.name}: its storage was replaced`;
    if (!same(t.shape, s.shape) || !same(t.strides, s.strides) || t.storageOffset !== s.offset)
      return `${s.name}: resized from [${s.shape.join(', ')}] to [${t.shape.join(', ')}] (strides [${t.strides.join(', ')}], offset ${t.storageOffset})`;
    if (t.version !== s.version) return `${s.name}: version counter bumped from ${s.version} to ${t.version}`;
    if (!sameBytes(s.bytes, await bytesOf(t))) return `${s.name}: storage bytes were written`;
  }
  return null;
}
