/**
 * The calls op_db's samples make, as the oracles make them: each OpInfo's sampleInputs and referenceInputs for
 * its claimed cpu dtypes and a few seeds, through the function form, the method form where `variants.method`,
 * the in-place `name_` where `variants.inplace` (not for a sample that broadcasts its input) and out= where
 * `variants.out` and `outApplies`. Each call is bound with the dispatcher's `bindCall` (nothing runs): the
 * overload it binds to and the arguments it passes explicitly are what schema coverage counts. The gradient
 * oracles' float64 samples are bound too, with their float64 tensors requiring grad.
 */
import type { OpInfo, SampleInput } from '../../../op_db/index.ts';
import { outArgNames } from '../../oracles/index.ts';
import { bindCall, callOp, givenArgNames, Tensor } from '../../runtime/index.ts';

export interface BoundCall {
  /** The OpInfo whose sample made the call. */
  readonly info: string;
  /** The qualified overload name (`add.Tensor`, `add_.Tensor`, `add.out`). */
  readonly overload: string;
  /** The arguments passed explicitly, in schema order. */
  readonly given: readonly string[];
  /** Arguments of a list type (`int[1]`) given a single value rather than a list. */
  readonly single: readonly string[];
}

export const DEFAULT_SEEDS: readonly number[] = [0, 1];

/** The samples of an OpInfo on cpu: sampleInputs and referenceInputs, every claimed cpu dtype, each seed. */
export function samplesOf(info: OpInfo, seeds: readonly number[] = DEFAULT_SEEDS): SampleInput[] {
  const out: SampleInput[] = [];
  for (const dtype of info.dtypes.cpu)
    for (const seed of seeds) {
      const ctx = { device: 'cpu', dtype, requiresGrad: false, seed } as const;
      for (const make of [info.sampleInputs, info.referenceInputs]) {
        try {
          out.push(...make(ctx));
        } catch {
          // A generator that cannot make a dtype's samples contributes none; the oracles report it.
        }
      }
    }
  return out;
}

function bound(
  info: OpInfo,
  name: string,
  args: unknown[],
  kwargs: Record<string, unknown>,
): BoundCall | null {
  try {
    const [entry, bound] = bindCall(name, args, kwargs);
    const given = givenArgNames(entry.schema, args, kwargs);
    const positional = entry.schema.args.filter((a) => !a.kwargOnly);
    const single = entry.schema.args
      .filter((a) => a.type.isList && given.includes(a.name))
      .filter((a) => {
        const i = positional.indexOf(a);
        const raw = i >= 0 && i < args.length ? args[i] : kwargs[a.name];
        return raw !== undefined && !Array.isArray(raw) && Array.isArray(bound[a.name]);
      })
      .map((a) => a.name);
    return { info: info.name, overload: entry.schema.qualifiedName, given, single };
  } catch {
    // A sample that binds to no overload is an error input in disguise; the oracles report it when they run.
    return null;
  }
}

let outTensor: Tensor | null = null;
/** Any tensor serves as `out` for binding (shapes and dtypes are the kernels' business, not the binder's). */
export function anyOut(): Tensor {
  outTensor ??= callOp('empty', [[0]]) as Tensor;
  return outTensor;
}

/** The calls one sample makes: function (and method), in-place and out= forms. */
export function callsOfSample(info: OpInfo, s: SampleInput): BoundCall[] {
  const args = [s.input, ...s.args];
  const kwargs = { ...s.kwargs };
  const calls = [bound(info, info.op, args, kwargs)];
  // The method form binds like the function form (`t.add(b)` is `add(t, b)`): one binding serves both.
  const inplace = info.variants.inplace && (info.inplaceApplies?.(s) ?? true);
  if (inplace && s.input instanceof Tensor && !s.broadcastsInput && !('out' in kwargs))
    calls.push(bound(info, `${info.op}_`, args, kwargs));
  if (info.variants.out && (info.outApplies?.(s) ?? true) && !('out' in kwargs)) {
    calls.push(bound(info, info.op, args, { ...kwargs, out: anyOut() }));
    // Tuple outs (max_pool2d_with_indices.out's out and indices), as the reference oracle's guarded out= passes them.
    for (const n of [2, 3]) {
      const names = outArgNames(info.op, n);
      if (names)
        calls.push(
          bound(info, info.op, args, { ...kwargs, ...Object.fromEntries(names.map((k) => [k, anyOut()])) }),
        );
    }
  }
  return calls.filter((c): c is BoundCall => c !== null);
}

/**
 * The gradient oracles' calls: the function form of the float64 samples made with `requiresGrad`, whose float64
 * tensors require grad (a 0-dim tensor that requires grad binds a Tensor overload, never a Scalar one).
 */
function gradCalls(info: OpInfo, seeds: readonly number[]): BoundCall[] {
  if (!info.flags.supportsAutograd || !info.backwardDtypes.cpu.includes('float64')) return [];
  const out: BoundCall[] = [];
  for (const seed of seeds) {
    let samples: SampleInput[] = [];
    try {
      samples = info.sampleInputs({ device: 'cpu', dtype: 'float64', requiresGrad: true, seed });
    } catch {
      // As in samplesOf.
    }
    for (const s of samples) {
      const leaf = (x: unknown): unknown =>
        x instanceof Tensor && x.dtype === 'float64' && !x.requiresGrad
          ? (callOp('detach', [x]) as Tensor).requiresGrad_(true)
          : Array.isArray(x)
            ? x.map(leaf)
            : x;
      const kwargs = Object.fromEntries(Object.entries(s.kwargs).map(([k, v]) => [k, leaf(v)]));
      const call = bound(info, info.op, [leaf(s.input), ...s.args.map(leaf)], kwargs);
      if (call) out.push(call);
    }
  }
  return out;
}

/** Every call of every sample of the given OpInfos. */
export function sampleCalls(infos: readonly OpInfo[], seeds: readonly number[] = DEFAULT_SEEDS): BoundCall[] {
  return infos.flatMap((info) => [
    ...samplesOf(info, seeds).flatMap((s) => callsOfSample(info, s)),
    ...gradCalls(info, seeds),
  ]);
}
