/** Moving samples between forms: layouts applied, the meta mirror, the RefSample references see. */

import {
  castRef,
  fromRuntime,
  type Layout,
  type OpInfo,
  RANDOM_SEED,
  type RefSample,
  type RefTensor,
  type SampleInput,
  WEBGPU_DTYPES,
} from '../../op_db/index.ts';
import {
  callOp,
  type DeviceType,
  DTYPE_INFO,
  type DType,
  deviceDTypes,
  Generator,
  isDType,
  isRegisteredDevice,
  MissingKernelError,
  manualSeed,
  Scalar,
  type Storage,
  Storage as StorageCtor,
  Tensor,
  toDevice,
  toHost,
  uploadTensor,
} from '../runtime/index.ts';
import { describeError, type Instance, OracleFailure } from './instance.ts';
import { applyLayout } from './layouts.ts';

function mapDeep(x: unknown, f: (t: Tensor) => unknown, g: (s: unknown) => unknown = (s) => s): unknown {
  if (x instanceof Tensor) return f(x);
  if (Array.isArray(x)) return x.map((v) => mapDeep(v, f, g));
  return g(x);
}

function mapKw(
  kw: Readonly<Record<string, unknown>>,
  f: (t: Tensor) => unknown,
  g?: (s: unknown) => unknown,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(kw).map(([k, v]) => [k, mapDeep(v, f, g)]));
}

export function mapSample(s: SampleInput, f: (t: Tensor, isInput: boolean) => Tensor): SampleInput {
  return {
    ...s,
    // A Tensor, a Tensor[] (cat, stack) or a factory's size/scalar (left as it is).
    input: mapDeep(s.input, (t) => f(t, true)) as SampleInput['input'],
    args: s.args.map((a) => mapDeep(a, (t) => f(t, false))),
    kwargs: mapKw(s.kwargs, (t) => f(t, false)),
  };
}

/** The sample with every tensor in `layout`; `inputWritable` keeps stride-0 layouts off the input. */
export function withLayout(s: SampleInput, layout: Layout, inputWritable = false): SampleInput {
  return mapSample(s, (t, isInput) => applyLayout(t, layout, isInput && inputWritable));
}

/** A meta tensor with exactly `t`'s sizes, strides and storage offset. */
export function metaMirror(t: Tensor): Tensor {
  const base = callOp('empty', [[Math.max(t.storage.numel, 1)]], {
    dtype: t.dtype,
    device: 'meta',
  }) as Tensor;
  return callOp('as_strided', [base, t.shape, t.strides, t.storageOffset]) as Tensor;
}

export function toRefSample(s: SampleInput): RefSample {
  const scalar = (v: unknown) => (v instanceof Scalar ? v.toNumber() : v);
  return {
    input: (s.input instanceof Tensor ? fromRuntime(s.input) : s.input) as RefTensor,
    args: s.args.map((a) => mapDeep(a, fromRuntime, scalar)),
    kwargs: mapKw(s.kwargs, fromRuntime, scalar),
  };
}

/**
 * Pointwise ops cast their inputs to the compute dtype before computing (int -> float32 for exp, float16
 * inputs stay float16): the reference sees the inputs as cast to the output dtype when that is a float.
 */
export function refSampleFor(info: OpInfo, s: SampleInput, outDType: DType | undefined): RefSample {
  const rs = toRefSample(s);
  const pointwise = info.family === 'unary' || info.family === 'binary' || info.family === 'ternary';
  if (
    !pointwise ||
    outDType === undefined ||
    (DTYPE_INFO[outDType].kind !== 'float' && DTYPE_INFO[outDType].kind !== 'complex')
  )
    return rs;
  const cast = (x: unknown): unknown =>
    x && typeof x === 'object' && 're' in x
      ? castRef(x as RefTensor, outDType)
      : Array.isArray(x)
        ? x.map(cast)
        : x;
  return {
    input: cast(rs.input) as RefTensor,
    args: rs.args.map(cast),
    kwargs: Object.fromEntries(Object.entries(rs.kwargs).map(([k, v]) => [k, cast(v)])),
  };
}

/** Every tensor in a sample (input first). */
export function sampleTensors(s: SampleInput): Tensor[] {
  const out: Tensor[] = [];
  const visit = (x: unknown) => {
    if (x instanceof Tensor) out.push(x);
    else if (Array.isArray(x)) x.forEach(visit);
  };
  visit(s.input);
  s.args.forEach(visit);
  Object.values(s.kwargs).forEach(visit);
  return out;
}

/** A bit-exact snapshot of a tensor's whole storage (to prove an op did not write it). */
export function snapshot(t: Tensor): Uint8Array | null {
  const d = t.storage.data;
  if (!d) return null;
  return new Uint8Array(d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength));
}

export function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Flattens an op result (a tensor, or a list/tuple of tensors) to a list. */
/**
 * Before each call of a randomized op (dropout): the default generator restarts at RANDOM_SEED and a `generator=`
 * the sample passes at its own initial seed, so every call (variant, layout, device) draws the same values.
 */
export function reseed(info: OpInfo, kwargs: Readonly<Record<string, unknown>> = {}): void {
  if (!info.flags.randomized) return;
  manualSeed(RANDOM_SEED);
  const g = kwargs.generator;
  if (g instanceof Generator) g.manualSeed(g.initialSeed());
}

/** One call of the OpInfo's op on a sample (reseeded first when the op is randomized), its tensor outputs. */
export function callSample(info: OpInfo, s: SampleInput): Tensor[] {
  reseed(info, s.kwargs);
  return outputsOf(callOp(info.op, [s.input, ...s.args], { ...s.kwargs }));
}

export function outputsOf(r: unknown): Tensor[] {
  if (r instanceof Tensor) return [r];
  if (Array.isArray(r)) return r.filter((x): x is Tensor => x instanceof Tensor);
  return [];
}

/**
 * The sample with its tensors moved to `device`, each keeping its sizes, strides and storage offset (the
 * whole storage is copied, so a layout's padding and aliasing between arguments survive). Wrapped numbers
 * (Python scalars) stay on cpu, as PyTorch keeps them. A `device` keyword naming the samples' device (cpu:
 * `x.to(device='cpu')`) names `device` instead, so the call stays on it.
 */
export function onDevice(s: SampleInput, device: DeviceType): SampleInput {
  if (device === 'cpu') return s;
  if (device === 'meta') return withDeviceKeyword(s, device);
  const storages = new Map<Storage, Storage>();
  // A registered device (registerDevice) takes its tensors through its own fromCpu.
  const upload = isRegisteredDevice(device)
    ? (t: Tensor) => toDevice(t, device, storages)
    : (t: Tensor) => uploadTensor(t, storages);
  // A tensor that requires grad keeps requiring it (an error input for an argument autograd refuses).
  const moved = mapSample(s, (t) => {
    if (t.device !== 'cpu' || t.isWrappedNumber) return t;
    const up = upload(t);
    return t.requiresGrad ? up.requiresGrad_(true) : up;
  });
  // A factory's sample (no tensor in it) creates on the registered device: else it would run on cpu and pass.
  if (isRegisteredDevice(device) && sampleTensors(s).length === 0 && s.kwargs.device === undefined)
    return { ...moved, kwargs: { ...moved.kwargs, device } };
  return withDeviceKeyword(moved, device);
}

/** The sample with its `device='cpu'` keyword, if it has one and tensors to move, naming `device`. */
export function withDeviceKeyword(s: SampleInput, device: DeviceType): SampleInput {
  return s.kwargs.device === 'cpu' && s.input instanceof Tensor
    ? { ...s, kwargs: { ...s.kwargs, device } }
    : s;
}

/** Cpu copies (same layout) of device tensors, read back once all queued work on them is done. */
export async function onHost(ts: readonly Tensor[]): Promise<Tensor[]> {
  return Promise.all(ts.map(toHost));
}

/** A sample whose expected tie order is PyTorch's CPU order (SampleInput.cpuTieOrder) does not apply on webgpu. */
export function notOnDevice(s: SampleInput, device: DeviceType): boolean {
  return s.cpuTieOrder === true && device === 'webgpu';
}

/**
 * Whether a sample mixes in a tensor of a dtype the device does not compute with (a float64 0-dim `other`,
 * an int64 operand or a Python int with bool tensors promoting the result): such a sample is not applicable there, like PyTorch's MPS skips.
 */
export function mixesUnsupported(s: SampleInput, device: DeviceType, computes: readonly DType[]): boolean {
  if (device === 'cpu') return false;
  const tensors = sampleTensors(s);
  if (tensors.some((t) => !t.isWrappedNumber && !computes.includes(t.dtype))) return true;
  // A Python int with bool tensors only promotes the result to int64 (bool + 3).
  const pythonInt = s.args.some((v) => typeof v === 'number' && Number.isInteger(v));
  if (
    pythonInt &&
    !computes.includes('int64') &&
    tensors.length > 0 &&
    tensors.every((t) => t.dtype === 'bool')
  )
    return true;
  // A dtype argument (`to(float64)`, `sum(dtype=int64)`) asking for an unsupported result.
  const named = [...s.args, ...Object.values(s.kwargs)];
  return named.some((v) => typeof v === 'string' && isDType(v) && !computes.includes(v));
}

/**
 * The instance's op called on the sample moved to `device`: the moved sample and the outputs, or null when
 * the sample cannot exist or run there because it mixes in a dtype the device does not compute. Any other
 * raise is the instance's failure, naming `who` raised it.
 */
export function callOnDevice(
  inst: Instance,
  k: number,
  s: SampleInput,
  device: DeviceType,
  who: string,
): { s: SampleInput; out: Tensor[] } | null {
  const computes = isRegisteredDevice(device) ? deviceDTypes() : WEBGPU_DTYPES;
  const notApplicable = (e: unknown) =>
    mixesUnsupported(s, device, computes) && (e as { code?: string }).code === 'E_DTYPE_UNSUPPORTED';
  if (notOnDevice(s, device)) return null;
  try {
    const d = onDevice(s, device);
    return { s: d, out: callSample(inst.info, d) };
  } catch (e) {
    if (notApplicable(e)) return null;
    // A registered device without a kernel for an op the sample reaches: its caller reports it unsupported.
    if (missingDeviceKernel(e, device) !== null) throw e;
    throw new OracleFailure(inst, k, s.name, `${who} raised ${describeError(e)}`);
  }
}

/** The op (`aten::neg`) a registered device has no kernel for, when that is what `e` says; else null. */
export function missingDeviceKernel(e: unknown, device: DeviceType): string | null {
  return e instanceof MissingKernelError && e.key === 'PrivateUse1' && e.device === device
    ? e.kernelOp
    : null;
}

/**
 * A copy of the sample on `device` with fresh storages (same sizes, strides, offsets and aliasing), so a run
 * that mutates its inputs cannot leak into the next.
 */
export function freshOn(s: SampleInput, device: DeviceType): SampleInput {
  if (device !== 'cpu') return onDevice(s, device);
  const storages = new Map<Storage, Storage>();
  return mapSample(s, (t) => {
    if (t.isWrappedNumber || t.device !== 'cpu') return t;
    let st = storages.get(t.storage);
    if (!st) {
      const data = t.storage.data!;
      st = new StorageCtor(t.dtype, 'cpu', t.storage.numel, data.slice() as typeof data);
      storages.set(t.storage, st);
    }
    return new Tensor(st, t.shape, t.strides, t.storageOffset);
  });
}
