/**
 * Generates specialised 1-D row loops for pointwise ops. Each (op, input dtypes, compute dtype, output dtype)
 * gets its own function built with `new Function`, so the call to the op's scalar function is monomorphic and
 * V8 inlines it; loads cast each input to its compute dtype and stores round to the value dtype and then
 * convert to the output dtype (int wrap-around, float16/bfloat16 round-to-nearest-even, int64 via BigInt).
 */
import {
  bf16BitsToNumber,
  DTYPE_INFO,
  type DType,
  f16BitsToNumber,
  numberToBf16Bits,
  numberToF16Bits,
  type StorageArray,
} from '../../core/index.ts';
import { f2u8 } from './elements.ts';

/** A pointwise scalar function; the element values come first, then the op's scalar parameters. */
// biome-ignore lint/suspicious/noExplicitAny: scalar functions take numbers, bigints or booleans per domain
export type ScalarFn = (...xs: any[]) => any;

export interface LoopSpec {
  readonly fn: ScalarFn;
  /** Storage dtype of each input. */
  readonly inputs: readonly DType[];
  /** The dtype each input is cast to before `fn` sees it. */
  readonly targets: readonly DType[];
  /** The dtype of `fn`'s result (rounded to it before storing). */
  readonly value: DType;
  readonly out: DType;
  /** Number of scalar params (each a number/bigint, or two numbers in the complex domain). */
  readonly nScalars: number;
  readonly scalarDomainComplex: boolean;
}

/** (n, arrays[out, in...], offsets[], strides[], scalars[]) with offsets/strides in array elements. */
export type RowLoop = (
  n: number,
  arrays: StorageArray[],
  offs: number[],
  strides: number[],
  scalars: unknown[],
) => void;

const i64Min = -(2n ** 63n);
/** Conversion helpers generated loops call by name (shared with the reduction codegen). */
export const CODEGEN_HELPERS = {
  H2F: f16BitsToNumber,
  F2H: numberToF16Bits,
  B2F: bf16BitsToNumber,
  F2B: numberToBf16Bits,
  FR: Math.fround,
  // Float -> int conversions follow x86 (cvttsd2si), which PyTorch's CPU casts compile to: NaN and out-of-range
  // values give the minimum int64 / int32 (narrower ints then keep the low bits of that int32).
  N2L: (v: number) => (Math.abs(v) < 2 ** 63 ? BigInt(Math.trunc(v)) : i64Min),
  F2I: (v: number) => (v > -2147483649 && v < 2147483648 ? Math.trunc(v) : -2147483648),
  // uint8 converts through a 64-bit register (PyTorch 1.13 on x86: float64 -2147483649.0 -> 255): its low byte.
  F2U8: f2u8,
  I8: (v: number) => (v << 24) >> 24,
  U8: (v: number) => v & 0xff,
  I16: (v: number) => (v << 16) >> 16,
  I32: (v: number) => v | 0,
};
const HELPER_NAMES = Object.keys(CODEGEN_HELPERS);
const HELPER_VALUES = Object.values(CODEGEN_HELPERS);

const isComplex = (d: DType) => DTYPE_INFO[d].kind === 'complex';
const realOf = (d: DType): DType => (d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d);

/** Rounds a JS number to what dtype `d` holds (for number-domain dtypes). */
function roundNum(d: DType, v: string): string {
  switch (d) {
    case 'bool':
      return `((${v}) != 0 ? 1 : 0)`;
    case 'uint8':
      return `U8(Math.trunc(${v}))`;
    case 'int8':
      return `I8(Math.trunc(${v}))`;
    case 'int16':
      return `I16(Math.trunc(${v}))`;
    case 'int32':
      return `I32(Math.trunc(${v}))`;
    case 'float16':
      return `H2F(F2H(${v}))`;
    case 'bfloat16':
      return `B2F(F2B(${v}))`;
    case 'float32':
      return `FR(${v})`;
    default:
      return v;
  }
}

/** Reads one stored element of dtype `from` as a number (bools and small ints are already numbers). */
function readNum(from: DType, x: string): string {
  if (from === 'float16') return `H2F(${x})`;
  if (from === 'bfloat16') return `B2F(${x})`;
  if (from === 'int64') return `Number(${x})`;
  return x;
}

/** Expression(s) for input `k` loaded from dtype `from` and cast to dtype `to`. */
function loadExpr(from: DType, to: DType, arr: string, idx: string): string[] {
  if (isComplex(to)) {
    if (isComplex(from)) return [`${arr}[${idx}]`, `${arr}[${idx} + 1]`];
    return [...loadExpr(from, realOf(to), arr, idx), '0'];
  }
  const x = isComplex(from) ? `${arr}[${idx}]` : `${arr}[${idx}]`;
  if (to === 'int64') return [from === 'int64' ? x : `BigInt(${readNum(from, x)})`];
  // int64 -> a narrower integer keeps the low bits exactly (Number() of a bigint above 2^53 would round first).
  if (from === 'int64' && DTYPE_INFO[to].kind === 'int')
    return [roundNum(to, `Number(BigInt.asIntN(32, ${x}))`)];
  const n = readNum(isComplex(from) ? realOf(from) : from, x);
  if (from === to) return [n];
  const fromKind = DTYPE_INFO[from].kind;
  const exactInto =
    to === 'float64'
      ? from !== 'int64'
      : to === 'float32'
        ? ['bool', 'uint8', 'int8', 'int16', 'float16', 'bfloat16'].includes(from)
        : fromKind === 'bool';
  if (
    DTYPE_INFO[to].kind === 'int' &&
    (fromKind === 'int' || fromKind === 'bool') &&
    DTYPE_INFO[from].itemsize <= DTYPE_INFO[to].itemsize &&
    from !== 'int64'
  )
    return [n];
  return [exactInto ? n : roundNum(to, n)];
}

/** Statement(s) storing value `v` of dtype `value` into `arr[idx]` of dtype `out`. */
function storeStmt(value: DType, out: DType, arr: string, idx: string, v: string): string {
  const vk = DTYPE_INFO[value].kind;
  if (isComplex(out)) {
    if (vk === 'complex') return `const cv = ${v}; ${arr}[${idx}] = cv[0]; ${arr}[${idx} + 1] = cv[1];`;
    return `${arr}[${idx}] = ${value === 'int64' ? `Number(${v})` : roundNum(value, v)}; ${arr}[${idx} + 1] = 0;`;
  }
  // Real output: complex values keep their real part (PyTorch warns and discards the imaginary part).
  const real = vk === 'complex' ? `(${v})[0]` : v;
  const valueReal = realOf(value);
  if (out === 'int64') {
    if (valueReal === 'int64') return `${arr}[${idx}] = ${real};`;
    if (valueReal === 'bool') return `${arr}[${idx}] = (${real}) != 0 ? 1n : 0n;`;
    return `${arr}[${idx}] = N2L(${roundNum(valueReal, real)});`;
  }
  if (valueReal === 'int64') {
    const bits = DTYPE_INFO[out].kind === 'int' ? 32 : 64; // typed-array stores wrap int32 further to int8/int16
    const n = out === 'bool' ? `((${real}) != 0 ? 1 : 0)` : `Number(BigInt.asIntN(${bits}, ${real}))`;
    return `${arr}[${idx}] = ${out === 'float16' ? `F2H(${n})` : out === 'bfloat16' ? `F2B(${n})` : n};`;
  }
  const rounded = valueReal === out ? real : roundNum(valueReal, real);
  if (out === 'bool') return `${arr}[${idx}] = (${rounded}) != 0 ? 1 : 0;`;
  if (out === 'float16') return `${arr}[${idx}] = F2H(${rounded});`;
  if (out === 'bfloat16') return `${arr}[${idx}] = F2B(${rounded});`;
  if (out === 'uint8' && DTYPE_INFO[valueReal].kind === 'float') return `${arr}[${idx}] = F2U8(${rounded});`;
  if (DTYPE_INFO[out].kind === 'int' && DTYPE_INFO[valueReal].kind === 'float')
    return `${arr}[${idx}] = F2I(${rounded});`;
  return `${arr}[${idx}] = ${rounded};`;
}

/**
 * Loops by the scalar function they inline (identity: two closures never share a loop), then by a number packing
 * the dtypes (4 bits each), so a cache hit builds no strings.
 */
const cache = new Map<ScalarFn, Map<number, RowLoop>>();
const DTYPE_CODE = new Map(Object.keys(DTYPE_INFO).map((d, i) => [d, i + 1]));

function specCode(spec: LoopSpec): number {
  let code = spec.nScalars * 2 + (spec.scalarDomainComplex ? 1 : 0);
  code = code * 16 + DTYPE_CODE.get(spec.value)!;
  code = code * 16 + DTYPE_CODE.get(spec.out)!;
  for (let k = 0; k < spec.inputs.length; k++) {
    code = code * 256 + DTYPE_CODE.get(spec.inputs[k])! * 16 + DTYPE_CODE.get(spec.targets[k])!;
  }
  return code;
}

export function compileRowLoop(spec: LoopSpec): RowLoop {
  let byCode = cache.get(spec.fn);
  if (!byCode) {
    byCode = new Map();
    cache.set(spec.fn, byCode);
  }
  const code = specCode(spec);
  const hit = byCode.get(code);
  if (hit) return hit;
  const n = spec.inputs.length;
  const lines: string[] = ['const o = A[0]; let io = O[0]; const so = S[0];'];
  for (let k = 0; k < n; k++) {
    lines.push(`const a${k} = A[${k + 1}]; let i${k} = O[${k + 1}]; const s${k} = S[${k + 1}];`);
  }
  for (let j = 0; j < spec.nScalars; j++) {
    if (spec.scalarDomainComplex) lines.push(`const k${j}r = K[${j}][0], k${j}i = K[${j}][1];`);
    else lines.push(`const k${j} = K[${j}];`);
  }
  const scalarArgs: string[] = [];
  for (let j = 0; j < spec.nScalars; j++)
    scalarArgs.push(...(spec.scalarDomainComplex ? [`k${j}r`, `k${j}i`] : [`k${j}`]));
  const bodyAt = (index: (k: number) => string, outIndex: string): string => {
    const args: string[] = [];
    for (let k = 0; k < n; k++) args.push(...loadExpr(spec.inputs[k], spec.targets[k], `a${k}`, index(k)));
    return `const v = fn(${[...args, ...scalarArgs].join(', ')});\n${storeStmt(spec.value, spec.out, 'o', outIndex, 'v')}`;
  };
  const strided = `${bodyAt((k) => `i${k}`, 'io')}\n${['io += so;', ...Array.from({ length: n }, (_, k) => `i${k} += s${k};`)].join(' ')}`;
  // Dense rows starting at 0 index by the loop counter alone, which lets V8 drop the bounds checks.
  const dense = [
    'so === 1 && io === 0',
    ...Array.from({ length: n }, (_, k) => `s${k} === 1 && i${k} === 0`),
  ].join(' && ');
  const src = `return function rowLoop(N, A, O, S, K) {\n${lines.join('\n')}\nif (${dense}) {\nfor (let j = 0; j < N; j++) {\n${bodyAt(() => 'j', 'j')}\n}\nreturn;\n}\nfor (let j = 0; j < N; j++) {\n${strided}\n}\n};`;
  const loop = new Function('fn', ...HELPER_NAMES, src)(spec.fn, ...HELPER_VALUES) as RowLoop;
  byCode.set(code, loop);
  return loop;
}
