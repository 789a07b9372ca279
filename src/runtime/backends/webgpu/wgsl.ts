/**
 * WGSL building blocks shared by the generated kernels: type conversions between storage words and compute
 * types, strided offset computation, and the helper functions pointwise expressions may call.
 */
import { type DType, DTypeUnsupportedError } from '../../core/index.ts';
import { WEBGPU_STORAGE, type WgslStorage, wgslStorage } from './memory.ts';

/** A value type inside a kernel: f32, i32 (also bool/uint8 arithmetic), or WGSL bool. */
export type WgslValue = 'f32' | 'i32' | 'bool';

/** Converts an expression of type `from` to `to`. */
export function convert(e: string, from: WgslValue | WgslStorage, to: WgslValue): string {
  if (from === to) return e;
  if (to === 'bool')
    return from === 'f32' ? `(${e} != 0.0 || is_nan(${e}))` : from === 'i32' ? `(${e} != 0)` : `(${e} != 0u)`;
  if (from === 'bool') return to === 'f32' ? `select(0.0, 1.0, ${e})` : `select(0, 1, ${e})`;
  return `${to}(${e})`;
}

/** Converts a value to what a dtype's storage word holds (uint8 wraps to 8 bits, bool to 0/1). */
export function toStorage(e: string, from: WgslValue, dtype: DType): string {
  const s = WEBGPU_STORAGE[dtype]!;
  if (dtype === 'bool') return `select(0u, 1u, ${convert(e, from, 'bool')})`;
  if (dtype === 'uint8') return `(u32(${convert(e, from, 'i32')}) & 255u)`;
  return convert(e, from, s as WgslValue);
}

/**
 * The element at storage offset `o` of binding `B` (a dtype's storage) loaded as `to`. int64 is two words:
 * to f32 it converts exactly-rounded from both, to i32 it takes the low word (exact within the i32 range).
 */
export function loadExpr(B: string, o: string, dtype: DType, to: WgslValue): string {
  if (dtype !== 'int64') return convert(`${B}[${o}]`, WEBGPU_STORAGE[dtype]!, to);
  const lo = `${B}[2u * (${o})]`;
  const hi = `${B}[2u * (${o}) + 1u]`;
  if (to === 'f32')
    return `select(f32(${hi}) * 4294967296.0 + f32(bitcast<u32>(${lo})), f32(${lo}), ${hi} == (${lo} >> 31u))`;
  if (to === 'bool') return `(${lo} != 0 || ${hi} != 0)`;
  return lo;
}

/** The statement storing `value` (of type `from`) as element `o` of binding `B` of `dtype`. */
export function storeStmt(B: string, o: string, dtype: DType, value: string, from: WgslValue): string {
  if (dtype !== 'int64') return `${B}[${o}] = ${toStorage(value, from, dtype)};`;
  return `{ let v = ${convert(value, from, 'i32')}; ${B}[2u * (${o})] = v; ${B}[2u * (${o}) + 1u] = select(0, -1, v < 0); }`;
}

/** The compute value type of a dtype (bool and small ints compute in i32 and wrap on store). */
export function computeValue(dtype: DType, op = 'webgpu'): WgslValue {
  wgslStorage(dtype, op);
  if (dtype === 'int64') {
    throw new DTypeUnsupportedError(
      `"${op}" not implemented for 'Long' on webgpu: int64 is stored (two 32-bit words) but not computed with`,
      { op, arg: 'self', got: dtype, expected: 'float32/int32/uint8/bool' },
    );
  }
  return dtype === 'float32' ? 'f32' : 'i32';
}

/**
 * Declares `o0..o{k-1}` as the storage offsets of element `idx` for operands whose offset and strides start at
 * parameter words `bases[k]` (offset, then one stride per dim); the shape is at words 1..ndim.
 */
export function stridedOffsets(ndim: number, bases: readonly number[], idx = 'idx'): string {
  const lines = bases.map((b, k) => `  var o${k} = P[${b}];`);
  if (ndim > 0) lines.push(`  var r = ${idx};`);
  for (let d = ndim - 1; d >= 0; d--) {
    const upd = bases.map((b, k) => `o${k} += c * P[${b + 1 + d}];`).join(' ');
    lines.push(`  { let c = r % P[${1 + d}]; r = r / P[${1 + d}]; ${upd} }`);
  }
  return lines.join('\n');
}

/** Helpers expressions may call; a kernel includes those its expressions name. */
const HELPERS: Record<string, string> = {
  // PyTorch's maximum/minimum propagate NaN; WGSL's max/min need not.
  // Bit tests: a shader compiler may fold `x != x` away under fast-math assumptions.
  // Through a var: a constant NaN/inf bitcast is a WGSL compile error.
  f_inf: 'fn f_inf() -> f32 { var u = 0x7f800000u; return bitcast<f32>(u); }',
  f_nan: 'fn f_nan() -> f32 { var u = 0x7fc00000u; return bitcast<f32>(u); }',
  is_nan: 'fn is_nan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }',
  is_inf: 'fn is_inf(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }',
  nan_max:
    'fn nan_max(a: f32, b: f32) -> f32 { if (is_nan(a) || is_nan(b)) { return a + b; } return select(b, a, a > b); }',
  nan_min:
    'fn nan_min(a: f32, b: f32) -> f32 { if (is_nan(a) || is_nan(b)) { return a + b; } return select(b, a, a < b); }',
  // Abramowitz-Stegun 7.1.26 (|error| < 1.5e-7), enough for float32.
  erf_f:
    'fn erf_f(x: f32) -> f32 { let t = 1.0 / (1.0 + 0.3275911 * abs(x)); let y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x); return select(-y, y, x >= 0.0); }',
  // Python-style modulo (result takes the divisor's sign).
  fmod_py:
    'fn fmod_py(a: f32, b: f32) -> f32 { let m = a - b * trunc(a / b); return select(m, m + b, m != 0.0 && ((m < 0.0) != (b < 0.0))); }',
  imod_py:
    'fn imod_py(a: i32, b: i32) -> i32 { if (b == 0) { return 0; } let m = a % b; return select(m, m + b, m != 0 && ((m < 0) != (b < 0))); }',
  ifloordiv:
    'fn ifloordiv(a: i32, b: i32) -> i32 { if (b == 0) { return 0; } let q = a / b; return select(q, q - 1, (a % b != 0) && ((a < 0) != (b < 0))); }',
  ipow: 'fn ipow(a: i32, b: i32) -> i32 { if (b < 0) { return select(0, select(-1, 1, (b & 1) == 0), a == -1) + select(0, 1, a == 1); } var r = 1; var base = a; var e = b; loop { if (e == 0) { break; } if ((e & 1) == 1) { r = r * base; } base = base * base; e = e >> 1u; } return r; }',
  // C pow: x^0 = 1 and 1^y = 1 even for NaN; a negative base needs an integral exponent.
  // C pow with its special cases (C99 F.9.4.4); otherwise exp2(y log2|x|), negated for odd integer y.
  fpow: 'fn fpow(a: f32, b: f32) -> f32 { if (b == 0.0 || a == 1.0) { return 1.0; } if (is_nan(a) || is_nan(b)) { return a + b; } let bi = b == trunc(b); let odd = bi && !is_inf(b) && abs(b) < 16777216.0 && (i32(abs(b)) & 1) == 1; if (is_inf(b)) { if (a == -1.0) { return 1.0; } let big = abs(a) > 1.0; return select(0.0, f_inf(), big == (b > 0.0)); } if (a == 0.0) { if (b < 0.0) { return select(f_inf(), copysign_f(f_inf(), a), odd); } return select(0.0, a, odd); } if (is_inf(a)) { if (a > 0.0) { return select(0.0, f_inf(), b > 0.0); } let m = select(0.0, f_inf(), b > 0.0); return select(m, -m, odd); } if (a < 0.0 && !bi) { return f_nan(); } let m = exp2(b * log2(abs(a))); return select(m, -m, a < 0.0 && odd); }',
  fmod_f:
    'fn fmod_f(a: f32, b: f32) -> f32 { if (is_nan(a) || is_nan(b) || is_inf(a) || b == 0.0) { return f_nan(); } if (is_inf(b)) { return a; } return a - b * trunc(a / b); }',
  // Python's remainder from C fmod, as the cpu kernel computes it: the result takes the divisor's sign.
  rem_f:
    'fn rem_f(a: f32, b: f32) -> f32 { let r = fmod_f(a, b); if (r != 0.0 && !is_nan(r) && ((r < 0.0) != (b < 0.0))) { return r + b; } return r; }',
  // C atan2's signed zeros and infinities, which GPU atan2 need not get right.
  atan2_f:
    'fn atan2_f(a: f32, b: f32) -> f32 { if (is_nan(a) || is_nan(b)) { return a + b; } let negb = (bitcast<u32>(b) & 0x80000000u) != 0u; if (a == 0.0 && b == 0.0) { return copysign_f(select(0.0, 3.14159265358979, negb), a); } if (is_inf(a) && is_inf(b)) { return copysign_f(select(0.785398163397448, 2.35619449019234, negb), a); } if (is_inf(b)) { return copysign_f(select(0.0, 3.14159265358979, negb), a); } if (is_inf(a)) { return copysign_f(1.5707963267949, a); } if (a == 0.0) { return copysign_f(select(0.0, 3.14159265358979, negb), a); } return atan2(a, b); }',
  // Python floor division on floats, as aten's div_floor computes it (fmod first, then correct the quotient).
  fdiv_floor:
    'fn fdiv_floor(a: f32, b: f32) -> f32 { if (b == 0.0) { return a / b; } let m = a - b * trunc(a / b); var d = (a - m) / b; if (m != 0.0 && ((b < 0.0) != (m < 0.0))) { d = d - 1.0; } if (d == 0.0) { return select(0.0, -0.0, (a < 0.0) != (b < 0.0)); } var f = floor(d); if (d - f > 0.5) { f = f + 1.0; } return f; }',
  copysign_f:
    'fn copysign_f(a: f32, b: f32) -> f32 { return bitcast<f32>((bitcast<u32>(a) & 0x7fffffffu) | (bitcast<u32>(b) & 0x80000000u)); }',
  hypot_f:
    'fn hypot_f(a: f32, b: f32) -> f32 { if (is_inf(a) || is_inf(b)) { return f_inf(); } if (is_nan(a) || is_nan(b)) { return f_nan(); } let x = abs(a); let y = abs(b); let m = max(x, y); if (m == 0.0) { return 0.0; } let n = min(x, y) / m; return m * sqrt(1.0 + n * n); }',
};

export function helpersFor(...exprs: string[]): string {
  const want = new Set<string>();
  const visit = (code: string) => {
    for (const name of Object.keys(HELPERS)) {
      if (!want.has(name) && new RegExp(`\\b${name}\\(`).test(code)) {
        want.add(name);
        visit(HELPERS[name]);
      }
    }
  };
  for (const e of exprs) visit(e);
  return [...want].map((n) => HELPERS[n]).join('\n');
}
