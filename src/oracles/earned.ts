/**
 * Earned tolerances: a tolerance an OpInfo declares looser than the one it replaces must be needed. Each loosened
 * part must be used to at least a tenth by the worst element of the instance's samples: rtol by the error beyond
 * atol relative to |expected|, atol by the error beyond rtol·|expected|. A tolerance left ten times looser than
 * anything its samples show hides the bugs that fit in the slack (a narrowed accumulator, a lost rounding step),
 * and passes every value comparison; this is the check that sees it (PyTorch's toleranceOverride has none).
 */
import { castValue, type RefTensor, type Tolerance } from '../../op_db/index.ts';
import { DTYPE_INFO, type DType } from './runtime_face.ts';

/** The least share of a loosened rtol or atol that some element must use. */
export const EARNED_SHARE = 0.1;

/** The worst element's use of a tolerance's two parts, accumulated over comparisons. */
export class ToleranceUse {
  /** max over elements of (|a − e| − atol) / (rtol·|e|). */
  rtol = 0;
  /** max over elements of (|a − e| − rtol·|e|) / atol. */
  atol = 0;
  /** The largest error beyond each other part, to suggest a value. */
  rtolNeed = 0;
  atolNeed = 0;
  elements = 0;

  /** Adds a comparison of `actual` with `expected` (rounded to `dtype`) under `tol`; finite floating values only. */
  add(actual: RefTensor, expected: RefTensor, dtype: DType, tol: Tolerance): void {
    if (DTYPE_INFO[dtype].kind !== 'float' && DTYPE_INFO[dtype].kind !== 'complex') return;
    const one = (a: number, e0: number) => {
      const e = castValue(e0, dtype);
      if (!Number.isFinite(a) || !Number.isFinite(e)) return;
      const err = Math.abs(a - e);
      const x = Math.abs(e);
      this.elements++;
      if (x > 0 && tol.rtol > 0) {
        this.rtol = Math.max(this.rtol, (err - tol.atol) / (tol.rtol * x));
        this.rtolNeed = Math.max(this.rtolNeed, (err - tol.atol) / x);
      }
      if (tol.atol > 0) {
        this.atol = Math.max(this.atol, (err - tol.rtol * x) / tol.atol);
        this.atolNeed = Math.max(this.atolNeed, err - tol.rtol * x);
      }
    };
    for (let i = 0; i < actual.re.length; i++) {
      one(actual.re[i], expected.re[i]);
      if (actual.im) one(actual.im[i], expected.im ? expected.im[i] : 0);
    }
  }
}

const fmt = (x: number) => Number(x.toPrecision(2)).toString();

/**
 * Why `declared` (in force for `dtype`) is looser than `base` (what applies without the declaration) by more
 * than its samples earn, or null. `what` names the declaration in the message.
 */
export function unearnedTolerance(
  what: string,
  dtype: DType,
  declared: Tolerance,
  base: Tolerance,
  use: ToleranceUse,
): string | null {
  if (use.elements === 0) return null;
  const parts = (['rtol', 'atol'] as const).filter((p) => declared[p] > base[p] && use[p] < EARNED_SHARE);
  if (parts.length === 0) return null;
  const detail = parts.map((p) => {
    const need = p === 'rtol' ? use.rtolNeed : use.atolNeed;
    const fix =
      need <= base[p]
        ? `drop it (the default ${fmt(base[p])} holds)`
        : `tighten it to a value between ${fmt(need)} and ${fmt(need / EARNED_SHARE)}`;
    return `${p} ${fmt(declared[p])} is used to ${fmt(Math.max(0, use[p]) * 100)}% at most (largest need ${fmt(Math.max(0, need))}): ${fix}`;
  });
  return `unearned tolerance: the ${what} for ${dtype} is looser than its samples need (a bug that fits in the slack passes) — ${detail.join('; ')}`;
}
