/**
 * Change points in a metric's history (one value per commit, oldest first), in the spirit of Apache Otava:
 * at each point a window of `w` values before and after is compared with Welch's t statistic; a shift that is
 * both significant (|t| >= tMin) and larger than the margin is a regression (up) or an improvement (down); a
 * single value outside the margin that the next ones do not confirm is suspicious; fewer than 2w values are
 * insufficient data.
 */
export type ChangeState = 'regression' | 'improvement' | 'suspicious' | 'insufficient data';

export interface ChangePoint {
  readonly index: number;
  readonly state: ChangeState;
  readonly before: number;
  readonly after: number;
  readonly relative: number;
  readonly t: number;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: readonly number[]) => {
  const m = mean(xs);
  return xs.length > 1 ? xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1) : 0;
};

export function welchT(a: readonly number[], b: readonly number[]): number {
  const se = Math.sqrt(variance(a) / a.length + variance(b) / b.length);
  const d = mean(b) - mean(a);
  if (se === 0) return d === 0 ? 0 : Math.sign(d) * Number.POSITIVE_INFINITY;
  return d / se;
}

export function changePoints(values: readonly number[], w = 4, margin = 0.01, tMin = 4): ChangePoint[] {
  if (values.length < 2 * w) {
    return values.length
      ? [
          {
            index: values.length - 1,
            state: 'insufficient data',
            before: Number.NaN,
            after: Number.NaN,
            relative: 0,
            t: 0,
          },
        ]
      : [];
  }
  const out: ChangePoint[] = [];
  for (let i = w; i <= values.length - w; i++) {
    const a = values.slice(i - w, i);
    const b = values.slice(i, i + w);
    const before = mean(a);
    const after = mean(b);
    const relative = (after - before) / before;
    const t = welchT(a, b);
    if (Math.abs(relative) > margin && Math.abs(t) >= tMin) {
      // Keep only the strongest point of a run of adjacent detections.
      const prev = out[out.length - 1];
      const point = {
        index: i,
        state: relative > 0 ? 'regression' : 'improvement',
        before,
        after,
        relative,
        t,
      } as const;
      if (prev && prev.index === i - 1 && prev.state === point.state) {
        if (Math.abs(point.t) > Math.abs(prev.t)) out[out.length - 1] = point;
      } else out.push(point);
    }
  }
  // A lone spike: one value far from both neighbours' level, not a sustained shift.
  for (let i = 1; i < values.length - 1; i++) {
    const level = (values[i - 1] + values[i + 1]) / 2;
    const rel = (values[i] - level) / level;
    if (
      Math.abs(rel) > margin &&
      Math.abs(values[i + 1] - values[i - 1]) / level <= margin &&
      !out.some((p) => Math.abs(p.index - i) <= 1)
    )
      out.push({ index: i, state: 'suspicious', before: level, after: values[i], relative: rel, t: 0 });
  }
  return out.sort((x, y) => x.index - y.index);
}
