/**
 * gradcheck / gradgradcheck (torch.autograd.gradcheck): analytical Jacobians from the autograd engine against
 * float64 central differences. Fast mode compares vᵀJu for random u, v (one backward and two forward
 * evaluations per input) and, on failure, reruns the full Jacobian to report the entries that differ. Also:
 * reentrancy (two backward passes agree), zero numerical Jacobian for non-differentiable outputs, and stride-0
 * inputs refused like PyTorch.
 */
import { rng } from '../../op_db/index.ts';
import { callOp, DTYPE_INFO, grad, noGrad, Tensor } from '../runtime/index.ts';

export interface GradcheckOptions {
  eps?: number;
  atol?: number;
  rtol?: number;
  fastMode?: boolean;
  /** Allowed difference between two backward passes (reentrancy); 0 = must be identical. */
  nondetTol?: number;
  seed?: number;
}

export class GradcheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GradcheckError';
  }
}

type Fn = (...inputs: Tensor[]) => Tensor | readonly Tensor[];

/**
 * PyTorch's defaults, shared by full and fast mode. Mutable so a bite test can drift them in-process and see the
 * matrix's calibration (grad_calibration.ts) fail.
 */
export const GRADCHECK_TOLERANCES = { atol: 1e-5, rtol: 1e-3 };

const flat = (r: Tensor | readonly Tensor[]) => (r instanceof Tensor ? [r] : [...r]);
const isFloat = (t: Tensor) => DTYPE_INFO[t.dtype].kind === 'float';

/** Storage index of logical element `i` of `t`. */
function storageIndex(t: Tensor, i: number): number {
  let off = t.storageOffset;
  let rest = i;
  for (let d = t.ndim - 1; d >= 0; d--) {
    off += (rest % t.shape[d]) * t.strides[d];
    rest = Math.floor(rest / t.shape[d]);
  }
  return off;
}

function values(t: Tensor): Float64Array {
  const out = new Float64Array(t.numel);
  const data = t.storage.data as Float64Array | Float32Array;
  for (let i = 0; i < t.numel; i++) out[i] = Number(data[storageIndex(t, i)]);
  return out;
}

function checkInputs(inputs: readonly Tensor[]): void {
  inputs.forEach((t, i) => {
    if (!t.requiresGrad) return;
    if (t.dtype !== 'float64')
      throw new GradcheckError(
        `Input #${i} requires grad but is ${t.dtype}: gradcheck needs float64 inputs for precision`,
      );
    if (t.shape.some((s, d) => s > 1 && t.strides[d] === 0)) {
      throw new GradcheckError(
        `The ${i}th input has a dimension with stride 0. gradcheck only supports inputs that are non-overlapping to be able to compute the numerical gradients correctly. You should call .contiguous on the input before passing it to gradcheck.`,
      );
    }
  });
}

/** Outputs as float64 value arrays (recording stays on: gradgradcheck's function takes a gradient inside). */
function evaluate(fn: Fn, inputs: readonly Tensor[]): Float64Array[] {
  return flat(fn(...inputs)).map((o) =>
    values(isFloat(o) ? o : (noGrad(() => callOp('to', [o, 'float64'])) as Tensor)),
  );
}

/** Full numerical Jacobians: jac[input][output] is a (numel(out) x numel(in)) row-major matrix. */
function numericalJacobian(fn: Fn, inputs: readonly Tensor[], eps: number): (Float64Array[] | null)[] {
  return inputs.map((x) => {
    if (!x.requiresGrad) return null;
    const data = x.storage.data as Float64Array;
    let cols: Float64Array[] | null = null;
    for (let j = 0; j < x.numel; j++) {
      const k = storageIndex(x, j);
      const orig = data[k];
      data[k] = orig + eps;
      const plus = evaluate(fn, inputs);
      data[k] = orig - eps;
      const minus = evaluate(fn, inputs);
      data[k] = orig;
      if (!cols) cols = plus.map((p) => new Float64Array(p.length * x.numel));
      plus.forEach((p, o) => {
        for (let r = 0; r < p.length; r++) cols![o][r * x.numel + j] = (p[r] - minus[o][r]) / (2 * eps);
      });
    }
    return cols ?? evaluate(fn, inputs).map(() => new Float64Array(0));
  });
}

/** Full analytical Jacobians by one backward per output element (one-hot grad_outputs). */
function analyticalJacobian(fn: Fn, inputs: readonly Tensor[]): (Float64Array[] | null)[] {
  const outputs = flat(fn(...inputs));
  const diffIn = inputs.filter((t) => t.requiresGrad);
  const jac: (Float64Array[] | null)[] = inputs.map((x) =>
    x.requiresGrad ? outputs.map((o) => new Float64Array(o.numel * x.numel)) : null,
  );
  outputs.forEach((o, oi) => {
    if (!o.requiresGrad) return;
    for (let r = 0; r < o.numel; r++) {
      const onehot = noGrad(() => callOp('zeros_like', [o]) as Tensor);
      (onehot.storage.data as Float64Array)[storageIndex(onehot, r)] = 1;
      const gs = grad([o], diffIn, { gradOutputs: [onehot], retainGraph: true, allowUnused: true });
      let k = 0;
      inputs.forEach((x, i) => {
        if (!x.requiresGrad) return;
        const g = gs[k++];
        if (g) jac[i]![oi].set(values(g), r * x.numel);
      });
    }
  });
  return jac;
}

function compareJacobians(
  a: (Float64Array[] | null)[],
  n: (Float64Array[] | null)[],
  atol: number,
  rtol: number,
  inputs: readonly Tensor[],
): string | null {
  for (let i = 0; i < a.length; i++) {
    if (!a[i] || !n[i]) continue;
    for (let o = 0; o < a[i]!.length; o++) {
      const [A, N] = [a[i]![o], n[i]![o]];
      const bad: string[] = [];
      for (let k = 0; k < A.length; k++) {
        if (!(Math.abs(A[k] - N[k]) <= atol + rtol * Math.abs(N[k]))) {
          const cols = inputs[i].numel;
          bad.push(`(${Math.floor(k / cols)}, ${k % cols}): analytical ${A[k]}, numerical ${N[k]}`);
        }
      }
      if (bad.length) {
        return `Jacobian mismatch for output ${o} with respect to input ${i}: ${bad.length} of ${A.length} entries differ, e.g. ${bad.slice(0, 4).join('; ')}`;
      }
    }
  }
  return null;
}

const draw = (r: () => number) => r() * 2 - 1;

function randomLike(t: Tensor, r: () => number): Tensor {
  const u = noGrad(() => callOp('empty_like', [t], { memory_format: 'contiguous_format' }) as Tensor);
  const d = u.storage.data as Float64Array;
  for (let i = 0; i < d.length; i++) d[i] = draw(r);
  return u;
}

/** Fast mode's v and u for a function of one 1-element input to one 1-element output: vᵀJu = v·J·u. */
export function fastModeDirections(seed: number): { v: number; u: number } {
  const r = rng(seed);
  const v = draw(r);
  return { v, u: draw(r) };
}

/** Fast mode: vᵀ J u per (input, output) pair; returns a description of the first mismatch or null. */
function fastCheck(
  fn: Fn,
  inputs: readonly Tensor[],
  eps: number,
  atol: number,
  rtol: number,
  seed: number,
): string | null {
  const r = rng(seed);
  const outputs = flat(fn(...inputs));
  const vs = outputs.map((o) => (o.requiresGrad ? randomLike(o, r) : null));
  const diff = inputs.map((x, i) => ({ x, i })).filter(({ x }) => x.requiresGrad);
  for (const { x, i } of diff) {
    const u = values(randomLike(x, r));
    const data = x.storage.data as Float64Array;
    const idx = Array.from({ length: x.numel }, (_, j) => storageIndex(x, j));
    const orig = idx.map((k) => data[k]);
    const shift = (by: number) => {
      for (let j = 0; j < idx.length; j++) data[idx[j]] = orig[j] + by * u[j];
    };
    shift(eps);
    const plus = evaluate(fn, inputs);
    shift(-eps);
    const minus = evaluate(fn, inputs);
    shift(0);
    for (let o = 0; o < outputs.length; o++) {
      const v = vs[o];
      if (!v) {
        if (plus[o].some((p, k) => p !== minus[o][k]))
          return `Numerical gradient for function expected to be zero: output ${o} (not differentiable) changes with input ${i}`;
        continue;
      }
      const vv = values(v);
      let numerical = 0;
      for (let k = 0; k < vv.length; k++) numerical += (vv[k] * (plus[o][k] - minus[o][k])) / (2 * eps);
      const [g] = grad([outputs[o]], [x], { gradOutputs: [v], retainGraph: true, allowUnused: true });
      let analytical = 0;
      if (g) {
        const gv = values(g);
        for (let j = 0; j < gv.length; j++) analytical += gv[j] * u[j];
      }
      if (!(Math.abs(analytical - numerical) <= atol + rtol * Math.abs(numerical))) {
        return `fast mode: vᵀJu for output ${o} with respect to input ${i}: analytical ${analytical}, numerical ${numerical}`;
      }
    }
  }
  return null;
}

export function gradcheck(fn: Fn, inputs: readonly Tensor[], o: GradcheckOptions = {}): true {
  const { eps = 1e-6, fastMode = false, nondetTol = 0, seed = 0 } = o;
  const { atol = GRADCHECK_TOLERANCES.atol, rtol = GRADCHECK_TOLERANCES.rtol } = o;
  checkInputs(inputs);
  if (fastMode) {
    const why = fastCheck(fn, inputs, eps, atol, rtol, seed);
    if (why) {
      const full = compareJacobians(
        analyticalJacobian(fn, inputs),
        numericalJacobian(fn, inputs, eps),
        atol,
        rtol,
        inputs,
      );
      throw new GradcheckError(
        `${why}\n  full Jacobian rerun: ${full ?? 'no entry differs beyond tolerance (fast-mode mismatch only)'}`,
      );
    }
    return true;
  }
  const numerical = numericalJacobian(fn, inputs, eps);
  checkNonDifferentiable(flat(fn(...inputs)), numerical);
  const analytical = analyticalJacobian(fn, inputs);
  const why = compareJacobians(analytical, numerical, atol, rtol, inputs);
  if (why) throw new GradcheckError(why);
  // Reentrancy: a second backward pass gives the same Jacobian.
  const again = analyticalJacobian(fn, inputs);
  const reentrant = compareJacobians(again, analytical, nondetTol, 0, inputs);
  if (reentrant)
    throw new GradcheckError(
      `Backward is not reentrant, i.e., running backward with the same input and grad_output multiple times gives different values: ${reentrant}`,
    );
  return true;
}

/** Non-differentiable outputs (no grad, or integer/bool) must not change when the inputs are perturbed. */
function checkNonDifferentiable(
  outputs: readonly Tensor[],
  numerical: readonly (Float64Array[] | null)[],
): void {
  outputs.forEach((out, oi) => {
    if (out.requiresGrad) return;
    numerical.forEach((cols, i) => {
      if (cols?.[oi]?.some((v) => v !== 0)) {
        throw new GradcheckError(
          `Numerical gradient for function expected to be zero: output ${oi} (not differentiable) changes with input ${i}`,
        );
      }
    });
  });
}

/** gradcheck of the gradient: (inputs, gradOutputs) -> autograd.grad(fn(inputs), inputs, gradOutputs, createGraph). */
export function gradgradcheck(fn: Fn, inputs: readonly Tensor[], o: GradcheckOptions = {}): true {
  const r = rng((o.seed ?? 0) + 1);
  const outputs = noGrad(() => flat(fn(...inputs)));
  const gradOutputs = outputs.filter(isFloat).map((t) => randomLike(t, r).requiresGrad_(true));
  const diffIdx = inputs.map((t, i) => (t.requiresGrad ? i : -1)).filter((i) => i >= 0);
  const g = (...all: Tensor[]) => {
    const ins = all.slice(0, inputs.length);
    const gos = all.slice(inputs.length);
    const outs = flat(fn(...ins)).filter((t) => t.requiresGrad);
    const grads = grad(
      outs,
      diffIdx.map((i) => ins[i]),
      { gradOutputs: gos.slice(0, outs.length), createGraph: true, allowUnused: true },
    );
    return grads.map((gr, k) => gr ?? (callOp('zeros_like', [ins[diffIdx[k]]]) as Tensor));
  };
  return gradcheck(g, [...inputs, ...gradOutputs], o);
}
