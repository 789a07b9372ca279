/**
 * Registers a reduction: one `plan` (argument checks + result shapes and dtypes, shared by every device, so
 * meta tensors get the same errors and metadata) and one `run` (the CPU kernel filling fresh contiguous
 * results), plus an optional webgpu kernel (`gpu`). The optional out= overload follows the op's PyTorch rule
 * for the out tensor's dtype.
 */

import { copyInto } from '../../backends/cpu/index.ts';
import {
  CPP_TYPE_NAMES,
  canCast,
  DTYPE_INFO,
  type DType,
  ResultTypeError,
  sameShape,
  Tensor,
} from '../../core/index.ts';
import { type BoundArgs, DispatchKey, type OperatorEntry, operatorTable } from '../../dispatch/index.ts';
import { pendingOut, writeThroughOut } from '../out_write.ts';
import { commonDevice, readsOutStorage } from '../write_checks.ts';

export interface ResultSpec {
  readonly shape: readonly number[];
  readonly dtype: DType;
}

export interface Plan {
  readonly results: readonly ResultSpec[];
}

/**
 * How an out= tensor's dtype is checked: 'dtypeArg' = it becomes the computation dtype when `dtype` is not
 * given (sum, prod, cumsum), 'exact' = it must equal the result dtype, 'same' = it must equal the input
 * dtype (amax/amin), 'cast' = the result must be castable to it (and, like PyTorch, the kernel then stores
 * straight into the out dtype, e.g. a float64 out of a float32 mean keeps float64 precision), 'boolOrByte' =
 * bool or uint8 (all/any).
 */
export type OutRule = 'dtypeArg' | 'exact' | 'same' | 'cast' | 'boolOrByte';

export interface ReductionDef<P extends Plan> {
  readonly schema: string;
  readonly plan: (args: BoundArgs, op: string) => P;
  readonly run: (args: BoundArgs, plan: P, results: Tensor[], op: string) => void;
  /**
   * The webgpu kernel: fills `results` (fresh tensors, or an out= tensor of any strides, offset and the dtype
   * the out rule allows) at their own strides. Absent: the op raises E_NOT_IMPLEMENTED on webgpu.
   */
  readonly gpu?: (args: BoundArgs, plan: P, results: Tensor[], op: string) => void;
  /** Return a list [values, indices] instead of one tensor. */
  readonly multi?: boolean;
  readonly out?: { readonly schema: string; readonly rule: OutRule };
  readonly aliases?: readonly string[];
}

function outDTypeError(op: string, want: DType, got: DType): ResultTypeError {
  return new ResultTypeError(
    `Expected out tensor to have dtype ${CPP_TYPE_NAMES[want]}, but got ${CPP_TYPE_NAMES[got]} instead`,
    {
      op,
      arg: 'out',
      got,
      expected: want,
    },
  );
}

function checkOut(rule: OutRule, op: string, args: BoundArgs, result: DType, out: DType): void {
  const self = args.self as Tensor;
  if (rule === 'same' && self.dtype !== out) {
    throw new ResultTypeError(
      `Expected the dtype for input and out to match, but got ${DTYPE_INFO[self.dtype].torchName} for input's dtype and ${DTYPE_INFO[out].torchName} for out's dtype.`,
      { op, arg: 'out', got: out, expected: self.dtype },
    );
  }
  if ((rule === 'exact' || rule === 'dtypeArg') && result !== out) throw outDTypeError(op, result, out);
  if (rule === 'boolOrByte' && out !== 'bool' && out !== 'uint8') {
    throw new ResultTypeError(
      `${op} only supports bool tensor for result, got: ${DTYPE_INFO[out].torchName}`,
      {
        op,
        arg: 'out',
        got: out,
        expected: 'bool or uint8',
      },
    );
  }
  if (rule === 'cast' && !canCast(result, out)) {
    throw new ResultTypeError(
      `result type ${DTYPE_INFO[result].torchName} can't be cast to the desired output type ${DTYPE_INFO[out].torchName}`,
      { op, arg: 'out', got: out, expected: `a dtype ${result} can be cast to` },
    );
  }
}

export function defineReduction<P extends Plan>(def: ReductionDef<P>): OperatorEntry {
  const fn = operatorTable.def(def.schema, { family: 'reduction' });
  const functional = (_ks: unknown, args: BoundArgs, op: OperatorEntry) => {
    const device = commonDevice(op, args);
    const plan = def.plan(args, op.schema.name);
    const results = plan.results.map((r) => Tensor.empty(r.shape, r.dtype, device));
    if (device === 'webgpu') def.gpu!(args, plan, results, op.schema.name);
    else if (device !== 'meta') def.run(args, plan, results, op.schema.name);
    return def.multi ? results : results[0];
  };
  setKernels(fn, def, functional);
  for (const a of def.aliases ?? []) operatorTable.alias(a, fn.schema.name);
  if (def.out) defineOut(def, def.out.schema, def.out.rule);
  return fn;
}

function defineOut<P extends Plan>(def: ReductionDef<P>, schema: string, rule: OutRule): void {
  const entry = operatorTable.def(schema, { family: 'reduction' });
  const kernel = (_ks: unknown, bound: BoundArgs, op: OperatorEntry) => {
    const name = op.schema.name;
    const out = bound.out as Tensor;
    const device = commonDevice(op, bound);
    let args = bound;
    if (rule === 'dtypeArg') {
      if (bound.dtype !== null && bound.dtype !== out.dtype)
        throw outDTypeError(name, bound.dtype as DType, out.dtype);
      args = { ...bound, dtype: out.dtype };
    }
    const plan = def.plan(args, name);
    const spec = plan.results[0];
    checkOut(rule, name, args, spec.dtype, out.dtype);
    // `out` keeps its geometry until the kernel succeeded (see pendingOut).
    const { target, commit } = pendingOut(out, spec.shape);
    // An out that is also an input (`cumsum(x, 1, out=x)`) is written through a temporary, as in every out=.
    if (device !== 'meta')
      writeThroughOut(target, readsOutStorage(op, bound, target), (o) => {
        // webgpu kernels store at out's strides and in its dtype.
        if (device === 'webgpu') return def.gpu!(args, plan, [o], name);
        // Kernels of 'cast'/'boolOrByte' ops store through the result's dtype, so they can write any out dtype.
        const dtype = rule === 'cast' || rule === 'boolOrByte' ? o.dtype : spec.dtype;
        const direct =
          dtype === o.dtype && o.isContiguous() && o.storageOffset === 0 && sameShape(o.shape, spec.shape);
        const dense = direct ? o : Tensor.empty(spec.shape, dtype, device);
        def.run(args, plan, [dense], name);
        if (!direct) copyInto(o, dense);
      });
    commit();
    out.bumpVersion();
    return out;
  };
  setKernels(entry, def, kernel);
}

function setKernels<P extends Plan>(
  e: OperatorEntry,
  def: ReductionDef<P>,
  k: Parameters<OperatorEntry['kernels']['set']>[1],
): void {
  e.kernels.set(DispatchKey.CPU, k);
  e.kernels.set(DispatchKey.Meta, k);
  if (def.gpu) e.kernels.set(DispatchKey.WebGPU, k);
}
