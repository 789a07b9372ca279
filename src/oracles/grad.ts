/**
 * Oracle 2 (gradcheck, gradgradcheck) and backward consistency, over an OpInfo's samples made with
 * requiresGrad: every float64 tensor of the sample becomes a differentiable input, in the instance's layout.
 * Backward consistency: the gradient through a non-contiguous input equals the gradient through its contiguous
 * copy (PyTorch's test_noncontiguous_samples, backward half).
 */
import type { OpInfo, SampleContext, SampleInput } from '../../op_db/index.ts';
import { fromRuntime } from '../../op_db/index.ts';
import { compareValues } from './compare.ts';
import { calibrationFailure } from './grad_calibration.ts';
import { GradcheckError, gradcheck, gradgradcheck } from './gradcheck.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { callOp, grad, noGrad, type Tensor } from './runtime_face.ts';
import { callSample, mapSample, sampleTensors, withLayout } from './sample_io.ts';
import { toleranceFor } from './tolerances.ts';

/**
 * The sample as a function of its differentiable tensors (input first, then args/kwargs in order). An op whose
 * function variant writes its input (fill_, copy_) runs on a clone, as PyTorch's gradcheck wrappers do.
 */
function asFunction(inst: Instance, s: SampleInput): { fn: (...xs: Tensor[]) => Tensor[]; inputs: Tensor[] } {
  const inputs = sampleTensors(s).filter((t) => t.dtype === 'float64');
  const fn = (...xs: Tensor[]) => {
    let k = 0;
    const sub = mapSample(s, (t, isInput) => {
      if (t.dtype !== 'float64') return t;
      const x = xs[k++];
      return isInput && inst.info.flags.mutates ? (callOp('clone', [x]) as Tensor) : x;
    });
    const out = callSample(inst.info, sub);
    return out;
  };
  return { fn, inputs };
}

/** Samples made for gradients; ones holding NaN/±Inf (special-value samples) have no finite derivatives. */
export function gradSamplesIn(info: OpInfo, ctx: SampleContext): SampleInput[] {
  const finite = (s: SampleInput) =>
    sampleTensors(s).every(
      (t) => t.dtype !== 'float64' || fromRuntime(t).re.every((v) => Number.isFinite(v)),
    );
  return info.sampleInputs({ ...ctx, requiresGrad: true }).filter(finite);
}

/** An instance's gradient samples. */
export function gradSamples(inst: Instance): SampleInput[] {
  return gradSamplesIn(inst.info, sampleContext(inst));
}

/**
 * A sample's float64 tensors, laid out, as fresh leaves that require grad. Members with stride 0 (a sample's own
 * expanded list members) become dense: gradcheck refuses overlapping inputs, as PyTorch's does.
 */
function leaves(s: SampleInput, dense = false): SampleInput {
  return mapSample(s, (t) => {
    if (t.dtype !== 'float64') return t;
    const overlapping = dense && t.shape.some((n, d) => n > 1 && t.strides[d] === 0);
    return noGrad(
      () =>
        callOp(
          overlapping ? 'clone' : 'detach',
          [t],
          overlapping ? { memory_format: 'contiguous_format' } : {},
        ) as Tensor,
    ).requiresGrad_(true);
  });
}

function runGradcheck(inst: Instance, only: number | undefined, second: boolean): OracleResult {
  const miscalibrated = calibrationFailure();
  if (miscalibrated) throw new OracleFailure(inst, null, undefined, miscalibrated);
  let checks = 0;
  gradSamples(inst).forEach((s0, k) => {
    if (only !== undefined && k !== only) return;
    if (second && s0.firstOrderOnly) return;
    const s = leaves(withLayout(s0, inst.layout), true);
    const { fn, inputs } = asFunction(inst, s);
    if (inputs.length === 0 || !checkable(fn, inputs)) return;
    try {
      if (second) gradgradcheck(fn, inputs, { seed: inst.seed });
      else {
        gradcheck(fn, inputs, { seed: inst.seed });
        // Fast mode too, as PyTorch's test_ops runs it: its vᵀJu asks for one input's gradient at a time, which
        // full mode never does. Once per sample (contiguous layout) keeps the cost to a few evaluations.
        if (inst.layout === 'contiguous') gradcheck(fn, inputs, { seed: inst.seed, fastMode: true });
      }
    } catch (e) {
      throw new OracleFailure(
        inst,
        k,
        s0.name,
        e instanceof GradcheckError ? e.message : `raised ${describeError(e)}`,
      );
    }
    checks++;
  });
  return { checks };
}

/**
 * A sample gradcheck can judge: its differentiable outputs are float64 (a dtype= float32 result cannot be
 * checked to float64 precision) and finite (0-dim var is NaN).
 */
function checkable(fn: (...xs: Tensor[]) => Tensor[], inputs: Tensor[]): boolean {
  return fn(...inputs).every(
    (o) => !o.requiresGrad || (o.dtype === 'float64' && fromRuntime(o).re.every((v) => Number.isFinite(v))),
  );
}

export const runGradcheckOracle = (inst: Instance, only?: number) => runGradcheck(inst, only, false);
export const runGradgradcheckOracle = (inst: Instance, only?: number) => runGradcheck(inst, only, true);

/**
 * Gradients of sum(output_i * w_i) for fixed weights w, with respect to the sample's differentiable tensors.
 * `again`: then once more through the same graph (the first pass did not retain it), returned as the second
 * result, or the error it raised.
 */
function gradients(inst: Instance, s: SampleInput): Tensor[];
function gradients(inst: Instance, s: SampleInput, again: true): [Tensor[], Tensor[] | unknown];
function gradients(inst: Instance, s: SampleInput, again = false): Tensor[] | [Tensor[], Tensor[] | unknown] {
  const { fn, inputs } = asFunction(inst, s);
  const outs = fn(...inputs).filter((o) => o.requiresGrad);
  if (outs.length === 0) return again ? [[], []] : [];
  const weights = outs.map((o) =>
    noGrad(() =>
      o.numel === 0
        ? (callOp('zeros_like', [o]) as Tensor)
        : (callOp('linspace', [-1, 1, o.numel], { dtype: o.dtype }) as Tensor).reshape([...o.shape]),
    ),
  );
  const pass = () =>
    grad(outs, inputs, { gradOutputs: weights, allowUnused: true }).map(
      (g, i) => g ?? (callOp('zeros_like', [inputs[i]]) as Tensor),
    );
  const first = pass();
  if (!again) return first;
  try {
    return [first, pass()];
  } catch (e) {
    return [first, e];
  }
}

/** The weighted-sum gradients of a gradient sample (its float64 tensors become leaves), as the golden records. */
export function gradientsOf(inst: Instance, s: SampleInput): Tensor[] {
  return gradients(inst, leaves(s));
}

/**
 * A second backward through a graph the first did not retain: PyTorch raises "Trying to backward through the graph
 * a second time" when a node's saved tensors were freed, and otherwise computes the same gradients again. Any
 * other error, or other values, is a node running on what it already released.
 */
function checkSecondBackward(
  inst: Instance,
  k: number,
  name: string | undefined,
  first: readonly Tensor[],
  second: Tensor[] | unknown,
): void {
  if (!Array.isArray(second)) {
    if ((second as { code?: unknown })?.code === 'E_GRAPH_FREED') return;
    throw new OracleFailure(
      inst,
      k,
      name,
      `a second backward through the freed graph raised ${describeError(second)}, not E_GRAPH_FREED`,
    );
  }
  first.forEach((g, i) => {
    const m = compareValues(fromRuntime(second[i]), fromRuntime(g), g.dtype, { rtol: 0, atol: 0 });
    if (m)
      throw new OracleFailure(
        inst,
        k,
        name,
        `a second backward through the freed graph gave input ${i} another gradient at index ${m.index}: ${m.actual} vs ${m.expected}`,
      );
  });
}

export function runBackwardConsistency(inst: Instance, only?: number): OracleResult {
  let checks = 0;
  gradSamples(inst).forEach((s0, k) => {
    if (only !== undefined && k !== only) return;
    const laid = withLayout(s0, inst.layout);
    const dense = mapSample(laid, (t) => callOp('contiguous', [callOp('clone', [t])]) as Tensor);
    let a: Tensor[];
    let b: Tensor[];
    let second: Tensor[] | unknown;
    try {
      [a, second] = gradients(inst, leaves(laid), true);
      b = gradients(inst, leaves(dense));
    } catch (e) {
      throw new OracleFailure(inst, k, s0.name, `backward raised ${describeError(e)}`);
    }
    checkSecondBackward(inst, k, s0.name, a, second);
    a.forEach((g, i) => {
      const m = compareValues(
        fromRuntime(g),
        fromRuntime(b[i]),
        g.dtype,
        toleranceFor(g.dtype, inst.info.tolerances),
      );
      if (m) {
        throw new OracleFailure(
          inst,
          k,
          s0.name,
          `gradient of input ${i} in the ${inst.layout} layout differs from the contiguous copy's at index ${m.index}: ${m.actual} vs ${m.expected}`,
        );
      }
    });
    checks++;
  });
  return { checks };
}
