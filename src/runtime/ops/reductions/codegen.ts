/**
 * Source-text builders for reduction kernels. Each (op, input dtype, cast) pair compiles to its own function
 * with `new Function`, so the hot loop reads the typed array directly and has no per-element closure calls
 * (the same approach as backends/cpu/codegen.ts, whose conversion helpers it shares).
 */
import { CODEGEN_HELPERS } from '../../backends/cpu/index.ts';
import { DTYPE_INFO, type DType } from '../../core/index.ts';

const HELPER_NAMES = Object.keys(CODEGEN_HELPERS);
const HELPER_VALUES = Object.values(CODEGEN_HELPERS);

const kindOf = (d: DType) => DTYPE_INFO[d].kind;
const realOf = (d: DType): DType => (d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d);

/** The stored element as a JS number (the real lane for complex; int64 may round beyond 2^53). */
function rawNum(from: DType, arr: string, i: string): string {
  if (from === 'float16') return `H2F(${arr}[${i}])`;
  if (from === 'bfloat16') return `B2F(${arr}[${i}])`;
  if (from === 'int64') return `Number(${arr}[${i}])`;
  return `${arr}[${i}]`;
}

/** Rounds number `v` of real dtype `from` to what real dtype `to` holds (the cast PyTorch does first). */
function castNum(from: DType, to: DType, v: string): string {
  if (from === to) return v;
  const fk = kindOf(from);
  if (to === 'bool') return `(${v} !== 0 ? 1 : 0)`;
  if (kindOf(to) === 'int') return fk === 'float' ? `F2I(${v})` : v;
  if (fk === 'bool' || from === 'uint8' || from === 'int8') return v;
  if (to === 'float32') return from === 'float16' || from === 'bfloat16' || from === 'int16' ? v : `FR(${v})`;
  if (to === 'float16') return `H2F(F2H(${v}))`;
  if (to === 'bfloat16') return `B2F(F2B(${v}))`;
  return v;
}

/** Element `arr[i]` (dtype `from`) cast to real dtype `to`, as a JS number. */
export function numLoad(from: DType, to: DType, arr: string, i: string): string {
  const r = realOf(to);
  // Exact narrowing of int64 to a smaller int (Number() first would lose the low bits).
  if (from === 'int64' && kindOf(r) === 'int' && r !== 'int64') {
    return `Number(BigInt.asIntN(${DTYPE_INFO[r].itemsize * 8}, ${arr}[${i}]))`;
  }
  return castNum(realOf(from), r, rawNum(from, arr, i));
}

/** Element `arr[i]` cast to integer dtype `to`, as a bigint (exact for int64; narrower ints wrap later). */
export function bigLoad(from: DType, to: DType, arr: string, i: string): string {
  if (from === 'int64') return `${arr}[${i}]`;
  if (kindOf(from) === 'bool' || kindOf(from) === 'int') return `BigInt(${arr}[${i}])`;
  return to === 'int64' ? `N2L(${rawNum(from, arr, i)})` : `BigInt(F2I(${rawNum(from, arr, i)}))`;
}

/** Element `arr[i]` cast to complex dtype `to`, as [re, im] expressions (index `i` counts lanes). */
export function complexLoad(from: DType, to: DType, arr: string, i: string): [string, string] {
  const r = realOf(to);
  if (kindOf(from) !== 'complex') return [numLoad(from, r, arr, i), '0'];
  if (r === 'float32' && from === 'complex128') return [`FR(${arr}[${i}])`, `FR(${arr}[${i} + 1])`];
  return [`${arr}[${i}]`, `${arr}[${i} + 1]`];
}

/** Statement storing number `v` into `arr[i]` of real dtype `to` (complex: real lane, imaginary 0). */
export function numStore(to: DType, arr: string, i: string, v: string): string {
  switch (to) {
    case 'float16':
      return `${arr}[${i}] = F2H(${v});`;
    case 'bfloat16':
      return `${arr}[${i}] = F2B(${v});`;
    case 'int64':
      return `${arr}[${i}] = N2L(${v});`;
    case 'bool':
      return `${arr}[${i}] = ${v} !== 0 ? 1 : 0;`;
    case 'complex64':
    case 'complex128':
      return `${arr}[${i}] = ${v}; ${arr}[${i} + 1] = 0;`;
    default:
      // Typed-array stores round float32 and wrap integers (ToInt8/ToInt32...), like a C++ cast.
      return `${arr}[${i}] = ${v};`;
  }
}

const cache = new Map<string, unknown>();

/** Compiles `function(params) { body }` with the conversion helpers in scope, cached by `key`. */
export function compileKernel<F>(key: string, params: string, body: string): F {
  const hit = cache.get(key);
  if (hit) return hit as F;
  const fn = new Function(...HELPER_NAMES, `return function kernel(${params}) {\n${body}\n};`)(
    ...HELPER_VALUES,
  ) as F;
  cache.set(key, fn);
  return fn;
}

/** How a reduce loop sees each element: a number, a bigint (exact ints) or a complex pair `xr, xi`. */
export type LoadDomain = 'num' | 'big' | 'complex';

export interface ReduceLoopSpec {
  /** Names the update (with the other fields it forms the cache key). */
  readonly key: string;
  readonly input: DType;
  /** The dtype each element is cast to before the update sees it. */
  readonly cast: DType;
  readonly load: LoadDomain;
  /** Accumulator lanes per output element (locals a0, a1). */
  readonly lanes: 1 | 2;
  /** Lanes of the read-only auxiliary array at the accumulator's index (locals m0, m1), 0 for none. */
  readonly aux: 0 | 1 | 2;
  /** Statements updating a0 (a1) from x (or xr, xi), m0 (m1) and the scalar parameter k. */
  readonly update: string;
}

/**
 * A two-dimensional reduce loop: (n0, n1, A, X, io, so0, so1, ix, sx0, sx1, M, k). A is the accumulator
 * (stride 0 along reduced dims), X the input; inner dim 0, outer dim 1. Offsets and strides count lanes.
 */
export type ReduceLoop = (
  n0: number,
  n1: number,
  A: Float64Array | BigInt64Array,
  X: ArrayLike<unknown>,
  io: number,
  so0: number,
  so1: number,
  ix: number,
  sx0: number,
  sx1: number,
  M: Float64Array | null,
  k: number,
) => void;

function loadStmt(spec: ReduceLoopSpec): string {
  if (spec.load === 'complex') {
    const [re, im] = complexLoad(spec.input, spec.cast, 'X', 'i');
    return `const xr = ${re}, xi = ${im};`;
  }
  if (spec.load === 'big') return `const x = ${bigLoad(spec.input, spec.cast, 'X', 'i')};`;
  return `const x = ${numLoad(spec.input, spec.cast, 'X', 'i')};`;
}

export function compileReduceLoop(spec: ReduceLoopSpec): ReduceLoop {
  const key = `reduce|${spec.key}|${spec.input}|${spec.cast}|${spec.load}|${spec.lanes}|${spec.aux}|${spec.update}`;
  const accs = spec.lanes === 2 ? ['a0', 'a1'] : ['a0'];
  const auxs = spec.aux === 2 ? ['m0', 'm1'] : spec.aux === 1 ? ['m0'] : [];
  const read = [
    ...accs.map((a, l) => `let ${a} = A[o${l ? ' + 1' : ''}];`),
    ...auxs.map((m, l) => `const ${m} = M[o${l ? ' + 1' : ''}];`),
  ].join(' ');
  const write = accs.map((a, l) => `A[o${l ? ' + 1' : ''}] = ${a};`).join(' ');
  const load = loadStmt(spec);
  const body = `
for (let r = 0; r < n1; r++) {
  let o = io, i = ix;
  if (so0 === 0) {
    ${read}
    for (let j = 0; j < n0; j++) { ${load} ${spec.update} i += sx0; }
    ${write}
  } else {
    for (let j = 0; j < n0; j++) { ${read} ${load} ${spec.update} ${write} o += so0; i += sx0; }
  }
  io += so1; ix += sx1;
}`;
  return compileKernel<ReduceLoop>(key, 'n0, n1, A, X, io, so0, so1, ix, sx0, sx1, M, k', body);
}
