/**
 * One op call on a target, as the oracles make it: the sample's arguments bound to the op's schema by the
 * runtime's own Python binding (PyTorch's defaults filled in), its tensors made native (wrapped Python numbers
 * stay numbers), the op's row called, its tensor outputs read back as runtime tensors.
 */
import { bindCall, Scalar, Tensor } from '../runtime/index.ts';
import { hostOf, tensorOf } from './host.ts';
import { type LoadedTarget, loadTarget } from './registry.ts';
import { isMapped, NotExpressible, type TargetArg } from './target.ts';

/** Why an op does not run on a target at all (no row, or a row declaring it unmapped); null when it runs. */
export function unmappedReason(target: LoadedTarget, op: string): string | null {
  const row = target.target.ops[op];
  if (row === undefined) return `unmapped on ${target.target.adapter.name}: no op row for ${op} yet`;
  return isMapped(row) ? null : `unmapped on ${target.target.adapter.name}: ${row.unmapped}`;
}

async function toTarget(l: LoadedTarget, x: unknown): Promise<TargetArg<unknown>> {
  const { adapter } = l.target;
  if (x instanceof Tensor) {
    if (x.isWrappedNumber) return Number((await hostOf(x)).data[0]);
    return adapter.fromHost(l.rt, await hostOf(x));
  }
  if (x instanceof Scalar) {
    if (x.kind === 'complex') throw new NotExpressible('a complex scalar');
    return typeof x.value === 'bigint' ? Number(x.value) : x.value;
  }
  if (Array.isArray(x)) return Promise.all(x.map((v) => toTarget(l, v)));
  if (typeof x === 'bigint') return Number(x);
  return x as TargetArg<unknown>;
}

/**
 * Calls op_db's `opName` (the row's key; `op` is the name it is called by, as callOp takes it) on the target with
 * PyTorch's arguments. Throws NotExpressible when the call cannot be made there (an argument, a dtype, an output it
 * cannot represent); anything else it throws is the target's own refusal.
 */
export async function callOnTarget(
  name: string,
  opName: string,
  op: string,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): Promise<Tensor[]> {
  const l = await loadTarget(name);
  await l.target.adapter.activate?.(l.rt);
  const row = l.target.ops[opName];
  if (!isMapped(row)) throw new NotExpressible(unmappedReason(l, opName) ?? opName);
  // Binding is the runtime's (PyTorch's parser): a call PyTorch itself would refuse to bind is the same error here.
  let entry: ReturnType<typeof bindCall>[0];
  let bound: ReturnType<typeof bindCall>[1];
  try {
    [entry, bound] = bindCall(op, args, kwargs);
  } catch (e) {
    // PyTorch's own parser refuses the call (an error input of the wrong types): no call reaches the target.
    throw new NotExpressible(`PyTorch's binding refuses the call (${(e as Error).message.split('\n')[0]})`);
  }
  // No foreign runtime writes into a caller's tensor: out= (and PyTorch's checks of it) is not expressible.
  if (bound.out !== undefined && bound.out !== null) throw new NotExpressible('out= (no counterpart)');
  const a: Record<string, TargetArg<unknown>> = {};
  for (const [k, v] of Object.entries(bound)) a[k] = await toTarget(l, v);
  try {
    const out = row.call(l.rt, a, entry.schema.overload);
    const outs = (Array.isArray(out) ? out : [out]) as unknown[];
    const tensors: Tensor[] = [];
    for (const o of outs) {
      if (!l.target.adapter.isTensor(l.rt, o))
        throw new NotExpressible(`the row returned a non-tensor (${typeof o})`);
      tensors.push(tensorOf(await l.target.adapter.toHost(l.rt, o)));
    }
    return tensors;
  } finally {
    l.target.adapter.release?.(l.rt);
  }
}
