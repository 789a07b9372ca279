/** Runs a compiled pointwise row loop over an output and its (broadcast, strided, any-dtype) inputs. */
import {
  broadcastStridesFor,
  DeviceMismatchError,
  DTYPE_INFO,
  type DType,
  type Tensor,
} from '../../core/index.ts';
import { compileRowLoop, type LoopSpec, type RowLoop, type ScalarFn } from './codegen.ts';
import { forEachRow } from './iterator.ts';
import { type SimdOpName, simdKernel, simdRow } from './wasm/pointwise.ts';

/** Rows of at least this many elements try the SIMD kernel (below it, the copies cost more than they save). */
const SIMD_MIN = 16;

export interface PointwiseCall {
  /** The scalar function; compiled loops are cached by its identity. */
  readonly fn: ScalarFn;
  readonly targets: readonly DType[];
  readonly value: DType;
  readonly scalars: readonly unknown[];
  readonly scalarDomainComplex: boolean;
  /** The row's SIMD lowering when its scalars allow it (PointwiseRow.simd). */
  readonly simd?: SimdOpName;
  /**
   * A caller's store for the compiled loops of one fixed (fn, input dtypes, targets, value, scalars) signature,
   * by output dtype: a hit skips building the loop's cache key (the eager hot path).
   */
  readonly memo?: PointwiseMemo;
}

export interface PointwiseMemo {
  readonly loops: { [out in DType]?: RowLoop };
}

export function runPointwise(call: PointwiseCall, out: Tensor, inputs: readonly Tensor[]): void {
  const loop = call.memo?.loops[out.dtype] ?? loopFor(call, out, inputs);
  const all = [out, ...inputs];
  // Backstop for the ops' device checks: a meta / webgpu operand has no host data to loop over.
  const arrays = all.map((t) => t.storage.data ?? noHostData(all));
  const offsets = all.map((t) => t.storageOffset * DTYPE_INFO[t.dtype].lanes);
  const scalars = call.scalars as unknown[];
  if (out.numel === 1) {
    // One element (the eager-overhead case): no strides to broadcast, no iteration plan.
    loop(1, arrays, offsets, ZERO_STRIDES, scalars);
    return;
  }
  const strides = all.map((t, k) => {
    const s = k === 0 ? t.strides : broadcastStridesFor(t.shape, t.strides, out.shape);
    const lanes = DTYPE_INFO[t.dtype].lanes;
    return lanes === 1 ? s : s.map((x) => x * lanes);
  });
  const simd =
    call.simd && out.numel >= SIMD_MIN && sameDType(all) && call.targets.every((d) => d === out.dtype)
      ? simdKernel(call.simd, out.dtype)
      : null;
  forEachRow(out.shape, strides, offsets, (n, offs, st) => {
    if (simd && n >= SIMD_MIN && simdRow(simd, out.dtype, n, arrays, offs, st)) return;
    loop(n, arrays, offs, st, scalars);
  });
}

function loopFor(call: PointwiseCall, out: Tensor, inputs: readonly Tensor[]): RowLoop {
  const spec: LoopSpec = {
    fn: call.fn,
    inputs: inputs.map((t) => t.dtype),
    targets: call.targets,
    value: call.value,
    out: out.dtype,
    nScalars: call.scalars.length,
    scalarDomainComplex: call.scalarDomainComplex,
  };
  const loop = compileRowLoop(spec);
  if (call.memo) call.memo.loops[out.dtype] = loop;
  return loop;
}

/** Strides of a one-element row (any operand count a row loop takes). */
const ZERO_STRIDES = [0, 0, 0, 0, 0, 0];

function sameDType(all: readonly Tensor[]): boolean {
  for (let k = 1; k < all.length; k++) if (all[k].dtype !== all[0].dtype) return false;
  return true;
}

function noHostData(all: readonly Tensor[]): never {
  const t = all.find((x) => x.storage.data === null)!;
  throw new DeviceMismatchError('Expected all tensors to be on the same device', {
    arg: t === all[0] ? 'out' : 'input',
    got: t.device,
    expected: 'cpu',
  });
}
