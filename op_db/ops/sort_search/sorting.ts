/**
 * OpInfos for sort and topk. Indices are only well defined without ties, so:
 * - non-stable samples (sort.default, topk) use values distinct over the whole tensor, and sort along a dim that
 *   is not the first dim of size > 1 (the dim the expanded layout makes constant, which would create ties);
 * - samples with ties (random values, the special floats, -0 == 0, bool) call sort with stable=True, where
 *   equal values keep their input order;
 * - the `ties` samples repeat three values under sort(stable=False) and topk, where PyTorch 1.13's CPU order is
 *   libstdc++'s (std::sort; topk's nth_element / partial_sort), which the runtime's cpu kernel and the reference
 *   reproduce and the golden oracle checks index for index; webgpu sorts stably and does not draw them.
 */
import { DTYPE_GROUPS, DTYPE_INFO, type DType } from '../../../src/runtime/index.ts';
import { errorCase, FOUR_D, f32, gen, sample } from '../../families/shape.ts';
import { opInfo, WEBGPU_DTYPES } from '../../info.ts';
import { SPECIAL_FLOATS } from '../../make.ts';
import * as R from '../../refs/shape.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../../types.ts';

type Shape = readonly number[];

/** Special floats without ties in any claimed topk dtype (no -0 beside 0, no 1e-30 that half rounds to 0). */
const DISTINCT_SPECIALS = SPECIAL_FLOATS.filter((v) => !Object.is(v, -0) && v !== 1e-30);

function sortSamples(ctx: SampleContext): SampleInput[] {
  const { make, distinct } = gen(ctx);
  const bool = ctx.dtype === 'bool';
  // Tie-free sample; bool has only two values, so it sorts the same shape stably instead.
  const free = (shape: Shape, dim: number, descending: boolean, name: string) =>
    bool
      ? sample(make(shape), [], { stable: true, dim, descending }, { name: `${name} (stable)` })
      : sample(distinct(shape), [dim, descending], {}, { name });
  const out = [
    bool
      ? sample(make([3, 5]), [], { stable: true }, { name: 'defaults (stable)' })
      : sample(distinct([3, 5]), [], {}, { name: 'defaults' }),
    free([3, 5], -1, true, 'descending'),
    free([2, 3, 4], 2, false, '3-D, dim 2'),
    free(FOUR_D, 3, true, '4-D'),
    sample(make([]), [], {}, { name: '0-dim' }),
    sample(make([0, 4]), [0], {}, { name: 'zero-size' }),
    sample(make([4, 3]), [], { stable: true, dim: 0 }, { name: 'stable, dim 0, ties' }),
    sample(make([7]), [], { stable: true, descending: true }, { name: 'stable 1-D descending, ties' }),
    sample(make([2, 3, 4]), [], { stable: true, dim: 1 }, { name: 'stable 3-D, ties' }),
    sample(make([3, 5]), [], { stable: true, dim: -1, descending: false }, { name: 'stable, ties' }),
  ];
  if (DTYPE_INFO[ctx.dtype].kind === 'float') {
    const v = make.values(SPECIAL_FLOATS);
    out.push(sample(v, [], { stable: true }, { name: 'special values' }));
    out.push(sample(v, [], { stable: true, descending: true }, { name: 'special values, descending' }));
  }
  // Ties under sort(stable=False): PyTorch 1.13's CPU order is std::sort's, the stable order up to 16 elements
  // along the dim and introsort's past them (see tied).
  if (!ctx.requiresGrad) {
    const t = tied(make, ctx);
    out.push(
      cpuTies(sample(t([40]), [], {}, { name: 'ties, 40 (std::sort)' })),
      cpuTies(sample(t([33, 2]), [0, true], {}, { name: 'ties, dim 0 descending (std::sort)' })),
      cpuTies(sample(t([2, 70]), [], { stable: false, dim: -1 }, { name: 'ties, stable=False (std::sort)' })),
      cpuTies(
        sample(make.values(HEAP_FALLBACK), [], {}, { name: 'ties, introsort heap fallback (std::sort)' }),
      ),
    );
  }
  return out;
}

/**
 * A tensor of `shape` whose values repeat (three values, two for bool): equal values in every line. Ties order
 * as PyTorch's CPU kernels leave them (libstdc++'s std::sort, partial_sort, nth_element); webgpu sorts stably
 * (PyTorch's CUDA order differs from its CPU order too), so these samples apply to cpu and meta only
 * (SampleInput.cpuTieOrder), and not to gradcheck, where a perturbation reorders the ties.
 */
/**
 * 48 values (pairs of equal ones) on which std::sort's introsort runs out of depth and finishes with its heap
 * sort: McIlroy's adversary ("A killer adversary for quicksort", 1999) against the median-of-three pivot, run on
 * libstdc++'s algorithm, its values halved. PyTorch 1.13's indices agree with the port's there.
 */
const HEAP_FALLBACK = [
  19, 0, 18, 1, 24, 2, 19, 3, 21, 4, 18, 5, 22, 6, 17, 7, 20, 8, 10, 9, 23, 22, 21, 20, 0, 1, 2, 3, 4, 5, 6,
  7, 8, 9, 17, 15, 16, 14, 15, 13, 14, 12, 13, 11, 12, 10, 11, 16,
];

const cpuTies = (s: SampleInput): SampleInput => ({ ...s, cpuTieOrder: true });

function tied(make: ReturnType<typeof gen>['make'], ctx: SampleContext) {
  const kinds = ctx.dtype === 'bool' ? 2 : 3;
  return (shape: Shape) => {
    const n = shape.reduce((a, b) => a * b, 1);
    return make.values(
      Array.from({ length: n }, (_, i) => ((i * 7) % 11) % kinds),
      shape,
    );
  };
}

function topkSamples(ctx: SampleContext): SampleInput[] {
  const { make, distinct } = gen(ctx);
  const out = [
    sample(distinct([3, 6]), [2], {}, { name: 'k=2' }),
    sample(distinct([3, 6]), [3], { largest: false }, { name: 'smallest' }),
    sample(distinct([4, 5]), [5, 1], {}, { name: 'k = size' }),
    sample(distinct([2, 5, 3]), [2, 1], {}, { name: '3-D, dim 1' }),
    sample(distinct([2, 3, 4]), [2], { dim: -1, largest: true, sorted: true }, { name: 'keywords' }),
    sample(distinct(FOUR_D), [1, -1, false], {}, { name: '4-D, smallest' }),
    sample(distinct([3, 6]), [1], { sorted: false }, { name: 'sorted=False, k=1' }),
    sample(distinct([3, 6]), [0], {}, { name: 'k=0' }),
    sample(make([]), [1], {}, { name: '0-dim' }),
    sample(make([0, 4]), [2], {}, { name: 'zero-size' }),
  ];
  if (DTYPE_INFO[ctx.dtype].kind === 'float') {
    const row = DISTINCT_SPECIALS;
    const v = make.values([...row, ...[...row].reverse()], [2, row.length]);
    out.push(sample(v, [4], {}, { name: 'special values' }));
    out.push(sample(v, [4], { largest: false }, { name: 'special values, smallest' }));
  }
  // Ties: PyTorch 1.13's CPU topk is std::nth_element (then std::sort of the k - 1 before the k-th) when
  // k * 64 > n, else std::partial_sort; sorted=False leaves nth_element's order (see tied).
  if (!ctx.requiresGrad) {
    const t = tied(make, ctx);
    out.push(
      cpuTies(sample(t([40]), [5], {}, { name: 'ties, k=5 (nth_element)' })),
      cpuTies(sample(t([3, 40]), [7, -1, false], {}, { name: 'ties, smallest (nth_element)' })),
      cpuTies(sample(t([40]), [9], { sorted: false }, { name: 'ties, sorted=False (nth_element)' })),
      cpuTies(sample(t([128]), [2], {}, { name: 'ties, k * 64 = n (partial_sort)' })),
      cpuTies(sample(t([2, 400]), [6, 1, false], {}, { name: 'ties, smallest, k * 64 < n (partial_sort)' })),
      // Equal values that reach the heap's sift-up at its top while it is built (std::__push_heap's bound).
      cpuTies(
        sample(
          make.values(Array.from({ length: 384 }, (_, i) => ((i * i * 7 + 3) % 13) % 3)),
          [6, -1, false],
          {},
          { name: 'ties, smallest, heap built with ties (partial_sort)' },
        ),
      ),
    );
  }
  return out;
}

function sortErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([3]).to('complex64'),
      [],
      {},
      'E_DTYPE_UNSUPPORTED',
      /"sorting_kernel_method_name" not implemented for 'ComplexFloat'/,
    ),
    errorCase(f([2, 3]), [2], {}, 'E_DIM_OUT_OF_RANGE', /Dimension out of range/),
  ];
}

function topkErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(f([3]), [4], {}, 'E_INVALID_ARGUMENT', /selected index k out of range/),
    errorCase(f([3]), [-1], {}, 'E_INVALID_ARGUMENT', /selected index k out of range/),
    errorCase(f([2, 3]), [1, 2], {}, 'E_DIM_OUT_OF_RANGE', /Dimension out of range/),
    errorCase(f([3]).to('bool'), [1], {}, 'E_DTYPE_UNSUPPORTED', /"topk_cpu" not implemented for 'Bool'/),
    errorCase(f([3]).to('float16'), [1], {}, 'E_DTYPE_UNSUPPORTED', /"topk_cpu" not implemented for 'Half'/),
  ];
}

/** PyTorch 1.13 CPU: topk_cpu lacks bool, half and complex; sort lacks complex. Meta tensors take every dtype. */
const TOPK_CPU: readonly DType[] = DTYPE_GROUPS.realNumeric.filter((d) => d !== 'float16');

export const SORTING_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'sort',
    family: 'sorting',
    dtypes: DTYPE_GROUPS.allButComplex,
    // webgpu sorts int64 keys as (signed high, unsigned low) words: claimed there so ties between equal int64
    // values (the low-word comparison) run on the device.
    dtypesIf: { meta: DTYPE_GROUPS.all, webgpu: [...WEBGPU_DTYPES, 'int64'] },
    sampleInputs: sortSamples,
    errorInputs: sortErrors,
    ref: R.sortRef,
    flags: { exactRounding: true },
  }),
  opInfo({
    name: 'topk',
    family: 'sorting',
    dtypes: TOPK_CPU,
    dtypesIf: { meta: DTYPE_GROUPS.all },
    sampleInputs: topkSamples,
    errorInputs: topkErrors,
    ref: R.topkRef,
    flags: { exactRounding: true },
  }),
];
