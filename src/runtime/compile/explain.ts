/** torch._dynamo.explain for this runtime. */
import { compile } from './compile.ts';

export interface Explanation {
  readonly graphCount: number;
  readonly graphBreakCount: number;
  readonly opCount: number;
  readonly graphs: readonly string[];
  readonly breakReasons: readonly string[];
  readonly guards: readonly string[];
}

/** torch._dynamo.explain: compiles `fn` afresh for these arguments (running it once) and reports what it saw. */
export function explain<A extends unknown[]>(fn: (...args: A) => unknown, ...args: A): Explanation {
  const c = compile(fn, { backend: 'eager', dynamic: false });
  c(...args);
  const [e] = c.entries();
  return {
    graphCount: e.graphs.length,
    graphBreakCount: e.graphBreaks.length,
    opCount: e.graphs.reduce((n, g) => n + g.split('\n').filter((l) => /^%\d+ = /.test(l)).length, 0),
    graphs: e.graphs,
    breakReasons: e.graphBreaks,
    guards: e.guards,
  };
}
