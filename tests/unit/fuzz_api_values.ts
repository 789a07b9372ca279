/**
 * The values of the public-API fuzzer (fuzz_api.test.ts): a generated value is plain data (a `Spec`): tensors
 * are described, not built, so a shrunk or replayed counterexample gets fresh tensors (in-place ops mutate their
 * inputs) and fast-check can print it. `materialize` builds the value right before the call.
 *
 * Sizes stay tiny (dims 0..3, at most 3 dims) except deliberately huge ones, which are either meta tensors (no
 * data) or sizes the runtime must reject before allocating; the fuzz test also lowers the allocation limit, so
 * no call can allocate more than a few MiB or run long.
 */
import fc from 'fast-check';
import * as T from '../../src/runtime/index.ts';

export type Spec =
  | {
      readonly t: 'tensor';
      readonly dtype: T.DType | 'call';
      readonly device: Device;
      readonly shape: number[];
      readonly shapeFrom: ShapeFrom;
      readonly values: number[];
      readonly layout: Layout;
      readonly grad: boolean;
    }
  | { readonly t: 'hugeMeta'; readonly dtype: T.DType; readonly shape: number[] }
  | { readonly t: 'scalar'; readonly kind: 'int' | 'float' | 'bool' | 'complex'; readonly value: number }
  | { readonly t: 'object' | 'function' | 'symbol' | 'date' | 'typedArray' }
  | { readonly t: 'raw'; readonly v: unknown }
  | { readonly t: 'list'; readonly items: Spec[] }
  | { readonly t: 'record'; readonly entries: [string, Spec][] };

/** 'call': the device the whole call runs on (most tensors of a call share it, so calls get past device checks). */
type Device = 'cpu' | 'meta' | 'call';
type Layout = 'contiguous' | 'transposed' | 'expanded' | 'sliced';
/**
 * Where a tensor's shape comes from: its own `shape`, or the call's shape as is, reversed (so [a, b] and [b, a]
 * meet in mm) or without its first dim (broadcasting): related shapes let calls reach the kernels.
 */
type ShapeFrom = 'own' | 'call' | 'reversed' | 'suffix';

/** What the tensors of one call share. */
export interface CallContext {
  readonly device: 'cpu' | 'meta';
  readonly dtype: T.DType;
  readonly shape: number[];
}

export const raw = (v: unknown): Spec => ({ t: 'raw', v });
export const SMALL_INTS = [-3, -2, -1, 0, 1, 2, 3, 4];
/** Huge, negative, non-integer and non-finite numbers: every size/length/step must reject or survive them. */
export const HUGE_NUMBERS = [
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  1e9,
  1e18,
  -1e18,
  1e300,
  -(2 ** 31),
  -1e9,
];
export const ODD_NUMBERS = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  0.5,
  -1.5,
  1e-300,
  -0,
];
export const BIGINTS = [0n, 2n, -1n, 2n ** 63n - 1n, 2n ** 63n, -(2n ** 64n), 10n ** 30n];
export const STRINGS = [
  '',
  'abc',
  'sum',
  'mean',
  'prod',
  'amax',
  'amin',
  'floor',
  'trunc',
  'add',
  'multiply',
  'cpu',
  'meta',
  'cuda',
  'webgpu',
  'cpu:0',
  'float32',
  'int64',
  'bool',
  'channels_last',
  'contiguous_format',
  'preserve_format',
  'strided',
  '1:3',
  '...',
  'None',
  '0',
];

export const DTYPE = fc.constantFrom(...T.DTYPES);
export const smallDims = fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 });
export const value = fc.oneof(
  fc.integer({ min: -4, max: 4 }),
  fc.constantFrom(0.5, -2.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e10, 300),
);

export const tensorSpec: fc.Arbitrary<Spec> = fc
  .record({
    dtype: fc.oneof(DTYPE, fc.constant('call' as const)),
    device: fc.constantFrom<Device>('call', 'call', 'call', 'call', 'cpu', 'meta'),
    shape: smallDims,
    shapeFrom: fc.constantFrom<ShapeFrom>('own', 'own', 'call', 'call', 'reversed', 'suffix'),
    values: fc.array(value, { minLength: 27, maxLength: 27 }),
    layout: fc.constantFrom<Layout>('contiguous', 'contiguous', 'transposed', 'expanded', 'sliced'),
    grad: fc.boolean(),
  })
  .map((r) => ({ t: 'tensor' as const, ...r }));

/** A meta tensor with a huge dim (1e9 ... 2^50 elements): shape functions must cope without allocating. */
export const hugeMeta: fc.Arbitrary<Spec> = fc
  .record({
    dtype: DTYPE,
    shape: fc.array(fc.constantFrom(1, 2, 1e9, 2 ** 31, 2 ** 40, 3), { minLength: 1, maxLength: 3 }),
  })
  .map((r) => ({ t: 'hugeMeta' as const, ...r }));

export const scalarSpec: fc.Arbitrary<Spec> = fc
  .record({
    kind: fc.constantFrom('int' as const, 'float' as const, 'bool' as const, 'complex' as const),
    value: fc.oneof(fc.constantFrom(...SMALL_INTS), fc.constantFrom(...HUGE_NUMBERS, ...ODD_NUMBERS)),
  })
  .map((r) => ({ t: 'scalar' as const, ...r }));

export const junkLeaf: fc.Arbitrary<Spec> = fc.oneof(
  fc.constantFrom<Spec>(
    raw(null),
    raw(undefined),
    raw(true),
    raw(false),
    { t: 'object' },
    { t: 'function' },
    { t: 'symbol' },
    { t: 'date' },
    { t: 'typedArray' },
  ),
  fc.constantFrom(...STRINGS).map(raw),
  fc.constantFrom(...HUGE_NUMBERS, ...ODD_NUMBERS).map(raw),
  fc.constantFrom(...BIGINTS).map(raw),
);

export const intLike = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...SMALL_INTS).map(raw) },
  { weight: 2, arbitrary: fc.constantFrom(...HUGE_NUMBERS, ...ODD_NUMBERS).map(raw) },
  { weight: 1, arbitrary: fc.constantFrom(...BIGINTS).map(raw) },
  { weight: 1, arbitrary: scalarSpec },
);

/** Any value at all, typed or junk, nested a little. */
export const anyValue: fc.Arbitrary<Spec> = fc.letrec<{ v: Spec }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: tensorSpec },
    { weight: 1, arbitrary: hugeMeta },
    { weight: 3, arbitrary: intLike },
    { weight: 2, arbitrary: junkLeaf },
    {
      weight: 1,
      arbitrary: fc.array(tie('v'), { maxLength: 3 }).map((items): Spec => ({ t: 'list', items })),
    },
  ),
})).v;

/** Builds the value a spec describes (fresh objects each time). Building never throws for generated specs. */
const DEFAULT_CONTEXT: CallContext = { device: 'cpu', dtype: 'float32', shape: [2] };

export function materialize(s: Spec, ctx: CallContext = DEFAULT_CONTEXT): unknown {
  switch (s.t) {
    case 'raw':
      return s.v;
    case 'object':
      return { a: 1 };
    case 'function':
      return () => 1;
    case 'symbol':
      return Symbol('fuzz');
    case 'date':
      return new Date(0);
    case 'typedArray':
      return new Float32Array(2);
    case 'list':
      return s.items.map((x) => materialize(x, ctx));
    case 'record':
      return Object.fromEntries(s.entries.map(([k, v]) => [k, materialize(v, ctx)]));
    case 'scalar':
      return makeScalar(s.kind, s.value);
    case 'hugeMeta':
      return hugeMetaTensor(s.shape, s.dtype);
    case 'tensor':
      return makeTensor(
        s,
        s.dtype === 'call' ? ctx.dtype : s.dtype,
        s.device === 'call' ? ctx.device : s.device,
        shapeOf(s, ctx),
      );
  }
}

/** Shapes past the runtime's size limits raise a typed error; those fall back to a 1e9-long meta tensor. */
function hugeMetaTensor(shape: number[], dtype: T.DType): T.Tensor {
  try {
    return T.torch.empty(shape, { dtype, device: 'meta' });
  } catch (e) {
    if (!(e instanceof T.OpgateError)) throw e;
    return T.torch.empty([1e9], { dtype, device: 'meta' });
  }
}

function makeScalar(kind: 'int' | 'float' | 'bool' | 'complex', v: number): T.Scalar | number {
  if (kind === 'int') return Number.isSafeInteger(v) ? T.int(v) : v;
  if (kind === 'float') return T.float(v);
  if (kind === 'bool') return T.bool(v !== 0);
  return T.complex(v, 1);
}

function shapeOf(s: Extract<Spec, { t: 'tensor' }>, ctx: CallContext): number[] {
  if (s.shapeFrom === 'call') return [...ctx.shape];
  if (s.shapeFrom === 'reversed') return [...ctx.shape].reverse();
  if (s.shapeFrom === 'suffix') return ctx.shape.slice(1);
  return [...s.shape];
}

function makeTensor(
  s: Extract<Spec, { t: 'tensor' }>,
  dtype: T.DType,
  device: 'cpu' | 'meta',
  want: number[],
): T.Tensor {
  // Build a contiguous base one size bigger where the layout needs it, then take the described view of it.
  const layout = want.length === 0 ? 'contiguous' : s.layout;
  const shape = layout === 'sliced' ? [...want.slice(0, -1), 2 * (want.at(-1) ?? 1)] : [...want];
  if (layout === 'transposed') shape.reverse();
  const n = shape.reduce((a, b) => a * b, 1);
  const flat = Array.from({ length: n }, (_, i) => s.values[i % s.values.length]);
  let t = T.tensor(flat, { dtype }).reshape(shape);
  // Only floating tensors may require grad (this runtime has no complex autograd) (the cpu base is the leaf; views below record).
  if (s.grad && /^float/.test(dtype)) t = t.detach().requiresGrad_(true);
  if (layout === 'transposed' && shape.length > 1) t = t.permute([...shape.keys()].reverse());
  if (layout === 'sliced') t = T.getitem(t, '...', T.slice(null, null, 2));
  if (layout === 'expanded' && shape[0] === 1) t = t.expand([3, ...shape.slice(1)]);
  return device === 'meta' ? t.to('meta') : t;
}
