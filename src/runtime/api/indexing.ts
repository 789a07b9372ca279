/**
 * Python basic indexing: `getitem(t, 1, slice(null, null, 2))` or `getitem(t, '1:3, ::2')` is `t[1:3, ::2]`.
 * Ints select, slices slice, `null` inserts a dim (None), '...' is Ellipsis. Results are views.
 */
import { IndexOutOfRangeError, InvalidArgumentError, Tensor } from '../core/index.ts';
import { callOp } from '../dispatch/index.ts';

export interface Slice {
  readonly start: number | null;
  readonly stop: number | null;
  readonly step: number | null;
}
export const slice = (
  start: number | null = null,
  stop: number | null = null,
  step: number | null = null,
): Slice => ({ start, stop, step });

export type IndexItem = number | Slice | null | '...';

function parseIndex(spec: string): IndexItem[] {
  return spec.split(',').map((raw) => {
    const p = raw.trim();
    if (p === '...') return '...';
    if (p === 'None') return null;
    if (!p.includes(':')) {
      const n = Number(p);
      if (!Number.isInteger(n))
        throw new InvalidArgumentError('bad index', {
          op: 'getitem',
          arg: 'index',
          got: p,
          expected: 'int, slice, None or ...',
        });
      return n;
    }
    const [a, b, c] = p.split(':').map((x) => (x.trim() === '' ? null : Number(x)));
    return slice(a, b ?? null, c ?? null);
  });
}

const isSlice = (x: object): x is Slice => 'start' in x && 'stop' in x && 'step' in x;

/** Each item is an int, a slice(), null or '...' (anything else is E_INVALID_ARGUMENT, not a TypeError). */
function checkItems(items: readonly unknown[]): IndexItem[] {
  items.forEach((x, i) => {
    if (x === null || x === '...' || typeof x === 'number') return;
    if (typeof x === 'object' && isSlice(x)) return;
    throw new InvalidArgumentError('bad index', {
      op: 'getitem',
      arg: `index ${i}`,
      got: typeof x === 'object' ? 'an object' : typeof x === 'symbol' ? 'a symbol' : String(x),
      expected: 'int, slice(), None (null) or ...',
    });
  });
  return items as IndexItem[];
}

export function getitem(t: Tensor, ...items: (IndexItem | string)[]): Tensor {
  if (!(t instanceof Tensor))
    throw new InvalidArgumentError('getitem indexes a Tensor', {
      op: 'getitem',
      arg: 'self',
      got: t === null ? 'null' : typeof t,
      expected: 'a Tensor',
    });
  const list: IndexItem[] =
    items.length === 1 && typeof items[0] === 'string' && items[0] !== '...'
      ? parseIndex(items[0])
      : checkItems(items);
  const consuming = list.filter((x) => x !== null && x !== '...').length;
  if (consuming > t.ndim) {
    throw new IndexOutOfRangeError(`too many indices for tensor of dimension ${t.ndim}`, {
      op: 'getitem',
      arg: 'index',
      got: consuming,
      expected: `<= ${t.ndim}`,
    });
  }
  let out = t;
  let dim = 0;
  for (const it of list) {
    if (it === '...') dim += t.ndim - consuming;
    else if (it === null) {
      out = callOp('unsqueeze', [out, dim]) as Tensor;
      dim++;
    } else if (typeof it === 'number') out = callOp('select', [out, dim, it]) as Tensor;
    else {
      out = callOp('slice', [out, dim, it.start, it.stop, it.step ?? 1]) as Tensor;
      dim++;
    }
  }
  return out;
}
