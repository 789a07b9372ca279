/**
 * A sample as data PyTorch can replay (tools/golden/record.py): its storages as raw little-endian bytes, each
 * tensor as (storage, sizes, strides, storage offset), and every other argument typed so that Python's int,
 * float and bool stay apart. The fingerprint of that text keys the sample's golden: a changed sample (values,
 * layout, arguments) gets a new fingerprint and finds no golden, so it is reported stale, never compared.
 */
import { createHash } from 'node:crypto';
import type { SampleInput } from '../../../op_db/index.ts';
import { DTYPE_INFO, Generator, isDType, Scalar, type Storage, Tensor } from '../runtime_face.ts';

/** A value in a serialised call; `{T: i}` is the i-th tensor of the call's tensor table. */
export type GoldenValue =
  | null
  | { readonly T: number }
  | { readonly int: string }
  | { readonly float: number | 'inf' | '-inf' | 'nan' }
  | { readonly bool: boolean }
  | { readonly complex: readonly [number, number] }
  | { readonly dtype: string }
  | { readonly memory_format: string }
  | { readonly layout: string }
  | { readonly str: string }
  | { readonly generator: string }
  | readonly GoldenValue[];

export interface GoldenCall {
  readonly storages: readonly { readonly dtype: string; readonly numel: number; readonly b64: string }[];
  readonly tensors: readonly {
    readonly storage: number;
    readonly shape: readonly number[];
    readonly strides: readonly number[];
    readonly offset: number;
    /** Set only on a tensor that requires grad (an error input for a non-differentiable argument). */
    readonly requires_grad?: true;
  }[];
  readonly input: GoldenValue;
  readonly args: readonly GoldenValue[];
  readonly kwargs: Readonly<Record<string, GoldenValue>>;
  /** Replay through `torch.ops.aten.<op>` rather than the OpInfo's Python spelling (SampleInput.aten). */
  readonly aten?: true;
  /** Replay through the Tensor method `torch.Tensor.<name>` (SampleInput.method: `x.reshape(2, 3)`). */
  readonly method?: true;
}

const MEMORY_FORMATS = ['channels_last', 'contiguous_format', 'preserve_format'];

function floatValue(v: number): GoldenValue {
  if (Number.isNaN(v)) return { float: 'nan' };
  if (!Number.isFinite(v)) return { float: v > 0 ? 'inf' : '-inf' };
  return { float: v };
}

/** The bytes of a cpu storage, exactly as PyTorch lays them out (float16 bits, interleaved complex, int64). */
export function storageBytes(st: Storage): Uint8Array {
  const d = st.data;
  if (!d) return new Uint8Array(0);
  const lanes = DTYPE_INFO[st.dtype].kind === 'complex' ? 2 : 1;
  return new Uint8Array(d.buffer, d.byteOffset, st.numel * lanes * d.BYTES_PER_ELEMENT);
}

/** Serialises one sample; `storageIndex` maps each runtime storage to its index in the call's table. */
export function serializeCall(s: SampleInput): { call: GoldenCall; storageIndex: Map<Storage, number> } {
  const storageIndex = new Map<Storage, number>();
  const tensorIndex = new Map<Tensor, number>();
  const storages: GoldenCall['storages'][number][] = [];
  const tensors: GoldenCall['tensors'][number][] = [];
  const value = (v: unknown): GoldenValue => {
    if (v instanceof Tensor) {
      if (v.isWrappedNumber) return scalar(v.item() as number | bigint | boolean);
      let t = tensorIndex.get(v);
      if (t === undefined) {
        let st = storageIndex.get(v.storage);
        if (st === undefined) {
          st = storages.length;
          storageIndex.set(v.storage, st);
          const bytes = storageBytes(v.storage);
          storages.push({
            dtype: v.dtype,
            numel: v.storage.numel,
            b64: Buffer.from(bytes).toString('base64'),
          });
        }
        t = tensors.length;
        tensorIndex.set(v, t);
        tensors.push({
          storage: st,
          shape: [...v.shape],
          strides: [...v.strides],
          offset: v.storageOffset,
          ...(v.requiresGrad ? { requires_grad: true as const } : {}),
        });
      }
      return { T: t };
    }
    if (Array.isArray(v)) return v.map(value);
    if (v instanceof Scalar) {
      if (v.kind === 'complex') return { complex: [v.toNumber(), v.imag] };
      if (v.kind === 'float') return floatValue(v.toNumber());
      if (v.kind === 'bool') return { bool: v.value as boolean };
      return { int: v.toBigInt().toString() };
    }
    if (v === null || v === undefined) return null;
    // A generator= argument: PyTorch gets a generator with the same seed (its draws differ all the same).
    if (v instanceof Generator) return { generator: String(v.initialSeed()) };
    if (typeof v === 'string') {
      if (isDType(v)) return { dtype: v };
      if (MEMORY_FORMATS.includes(v)) return { memory_format: v };
      if (v === 'strided') return { layout: v };
      return { str: v };
    }
    return scalar(v as number | bigint | boolean);
  };
  const call: GoldenCall = {
    storages,
    tensors,
    input: value(s.input),
    args: s.args.map(value),
    kwargs: Object.fromEntries(Object.entries(s.kwargs).map(([k, v]) => [k, value(v)])),
    // Only when set, so every other sample's text (and fingerprint) is what it was.
    ...(s.aten && { aten: true as const }),
    ...(s.method && { method: true as const }),
  };
  return { call, storageIndex };
}

/** The runtime's documented default for bare JS values: an integral number is a Python int, others a float. */
function scalar(v: number | bigint | boolean): GoldenValue {
  if (typeof v === 'boolean') return { bool: v };
  if (typeof v === 'bigint') return { int: v.toString() };
  if (Number.isSafeInteger(v)) return { int: String(v) };
  return floatValue(v);
}

/** What a golden request asks PyTorch: the call's outputs, the call's error, or gradients (float64). */
export type GoldenKind = 'sample' | 'error' | 'grad';

/** The fingerprint that keys a golden: a hash of the op, the kind of request and the serialised call. */
export function fingerprint(op: string, kind: GoldenKind, call: GoldenCall): string {
  return createHash('sha256')
    .update(JSON.stringify([op, kind, call]))
    .digest('hex')
    .slice(0, 20);
}
