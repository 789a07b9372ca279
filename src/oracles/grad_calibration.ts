/**
 * gradcheck's self-check, run by every gradcheck/gradgradcheck instance: its tolerances must reject a derivative
 * 1e-2 off and accept one 1e-4 off, in full and in fast mode. Without it a tolerance loosened tenfold passes the
 * whole matrix (every op's backward is right). The function is x·w with its backward scaled by (1 + δ) through a
 * tensor hook, so each Jacobian entry, and fast mode's vᵀJu, is off by exactly δ relative. Their magnitude is
 * 5e-3, where both tolerances bind: a 1e-2 error (5e-5) exceeds atol + rtol·5e-3 (1.5e-5) but not atol×10 (1e-4)
 * nor rtol×10 (6e-5).
 */
import { fastModeDirections, GradcheckError, gradcheck } from './gradcheck.ts';
import { callOp, type Tensor, tensor } from './runtime_face.ts';

const MAGNITUDE = 5e-3;
const SEED = 0;
const CASES = [
  { delta: 1e-2, passes: false },
  { delta: 1e-4, passes: true },
] as const;

function accepts(w: number, delta: number, fastMode: boolean): boolean {
  const fn = (x: Tensor) => {
    const y = callOp('mul', [x, w]) as Tensor;
    y.registerHook((g) => callOp('mul', [g, 1 + delta]) as Tensor);
    return y;
  };
  try {
    return gradcheck(fn, [tensor([0.7], { dtype: 'float64' }).requiresGrad_(true)], { fastMode, seed: SEED });
  } catch (e) {
    if (e instanceof GradcheckError) return false;
    throw e;
  }
}

/** Why gradcheck's tolerances are miscalibrated, or null. */
export function calibrationFailure(): string | null {
  const { v, u } = fastModeDirections(SEED);
  for (const fastMode of [false, true]) {
    // Fast mode compares v·J·u, so J is scaled to put that product at the magnitude.
    const w = fastMode ? MAGNITUDE / (v * u) : MAGNITUDE;
    for (const { delta, passes } of CASES) {
      if (accepts(w, delta, fastMode) !== passes)
        return `gradcheck calibration: ${fastMode ? 'fast' : 'full'} mode ${passes ? 'rejected' : 'accepted'} a derivative off by ${delta} (relative, at magnitude ${MAGNITUDE}): its atol/rtol drifted`;
    }
  }
  return null;
}
