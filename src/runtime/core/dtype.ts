/**
 * The 12 dtypes and how each is stored. float16/bfloat16 are 16-bit patterns in a Uint16Array, int64 is a
 * BigInt64Array (exact, wraps), complex is interleaved (re, im) in a Float32Array / Float64Array.
 */
export const DTYPES = [
  'bool',
  'uint8',
  'int8',
  'int16',
  'int32',
  'int64',
  'float16',
  'bfloat16',
  'float32',
  'float64',
  'complex64',
  'complex128',
] as const;

export type DType = (typeof DTYPES)[number];

/** Category used by type promotion: bool < integral < floating < complex. */
export type DTypeKind = 'bool' | 'int' | 'float' | 'complex';

/**
 * How values of a dtype are held while a kernel computes: 'num' = JS number (bool, small ints, floats),
 * 'big' = bigint (int64), 'complex' = a (re, im) pair of numbers.
 */
export type ComputeDomain = 'num' | 'big' | 'complex';

export type StorageArray =
  | Uint8Array
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint16Array
  | Float32Array
  | Float64Array;

type StorageCtor = new (n: number) => StorageArray;

export interface DTypeInfo {
  readonly name: DType;
  readonly kind: DTypeKind;
  readonly itemsize: number;
  readonly domain: ComputeDomain;
  /** Array elements per logical element (2 for complex). */
  readonly lanes: number;
  readonly storage: StorageCtor;
  /** PyTorch's printed name, e.g. torch.float32 -> 'Float'. Used in error messages. */
  readonly torchName: string;
  readonly isSigned: boolean;
}

export const DTYPE_INFO: Record<DType, DTypeInfo> = {
  bool: info('bool', 'bool', 1, 'num', 1, Uint8Array, 'Bool', false),
  uint8: info('uint8', 'int', 1, 'num', 1, Uint8Array, 'Byte', false),
  int8: info('int8', 'int', 1, 'num', 1, Int8Array, 'Char', true),
  int16: info('int16', 'int', 2, 'num', 1, Int16Array, 'Short', true),
  int32: info('int32', 'int', 4, 'num', 1, Int32Array, 'Int', true),
  int64: info('int64', 'int', 8, 'big', 1, BigInt64Array, 'Long', true),
  float16: info('float16', 'float', 2, 'num', 1, Uint16Array, 'Half', true),
  bfloat16: info('bfloat16', 'float', 2, 'num', 1, Uint16Array, 'BFloat16', true),
  float32: info('float32', 'float', 4, 'num', 1, Float32Array, 'Float', true),
  float64: info('float64', 'float', 8, 'num', 1, Float64Array, 'Double', true),
  complex64: info('complex64', 'complex', 8, 'complex', 2, Float32Array, 'ComplexFloat', true),
  complex128: info('complex128', 'complex', 16, 'complex', 2, Float64Array, 'ComplexDouble', true),
};

function info(
  name: DType,
  kind: DTypeKind,
  itemsize: number,
  domain: ComputeDomain,
  lanes: number,
  storage: StorageCtor,
  torchName: string,
  isSigned: boolean,
): DTypeInfo {
  return { name, kind, itemsize, domain, lanes, storage, torchName, isSigned };
}

export function isDType(x: unknown): x is DType {
  return typeof x === 'string' && (DTYPES as readonly string[]).includes(x);
}

export const isFloatingDType = (d: DType): boolean => DTYPE_INFO[d].kind === 'float';
export const isComplexDType = (d: DType): boolean => DTYPE_INFO[d].kind === 'complex';
export const isIntegralDType = (d: DType, includeBool = false): boolean =>
  DTYPE_INFO[d].kind === 'int' || (includeBool && d === 'bool');

/** The real dtype of a complex dtype (complex64 -> float32); identity otherwise. */
export function toRealDType(d: DType): DType {
  if (d === 'complex64') return 'float32';
  if (d === 'complex128') return 'float64';
  return d;
}

/** The complex dtype holding a real dtype (float32 -> complex64, float64 -> complex128). */
export function toComplexDType(d: DType): DType {
  if (d === 'float64' || d === 'complex128') return 'complex128';
  return 'complex64';
}

/** Smallest and largest value of an integral dtype, as used for overflow and casting. */
export function integralRange(d: DType): [bigint, bigint] {
  const bits = DTYPE_INFO[d].itemsize * 8;
  if (d === 'bool') return [0n, 1n];
  if (!DTYPE_INFO[d].isSigned) return [0n, (1n << BigInt(bits)) - 1n];
  return [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n];
}

export const DTYPE_GROUPS = {
  all: DTYPES,
  floating: ['float16', 'bfloat16', 'float32', 'float64'] as readonly DType[],
  floatingAndComplex: [
    'float16',
    'bfloat16',
    'float32',
    'float64',
    'complex64',
    'complex128',
  ] as readonly DType[],
  integral: ['uint8', 'int8', 'int16', 'int32', 'int64'] as readonly DType[],
  integralAndBool: ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64'] as readonly DType[],
  allButComplex: DTYPES.filter((d) => DTYPE_INFO[d].kind !== 'complex') as readonly DType[],
  allButBool: DTYPES.filter((d) => d !== 'bool') as readonly DType[],
  realNumeric: DTYPES.filter((d) => d !== 'bool' && DTYPE_INFO[d].kind !== 'complex') as readonly DType[],
} as const;

/** c10's C++ element type names, as PyTorch prints them ("Expected out tensor to have dtype float, ..."). */
export const CPP_TYPE_NAMES: Record<DType, string> = {
  bool: 'bool',
  uint8: 'unsigned char',
  int8: 'signed char',
  int16: 'short int',
  int32: 'int',
  int64: 'long int',
  float16: 'c10::Half',
  bfloat16: 'c10::BFloat16',
  float32: 'float',
  float64: 'double',
  complex64: 'c10::complex<float>',
  complex128: 'c10::complex<double>',
};
