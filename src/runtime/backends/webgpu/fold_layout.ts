/**
 * Index arithmetic shared by the reduction, softmax and scan kernels: the input's dims split into kept dims
 * (one output element, row or line per combination) and folded dims (walked inside it), each operand read or
 * written at its own strides and storage offset. Size-1 dims are dropped: they move no offset.
 */
import type { Tensor } from '../../core/index.ts';
import type { Params } from './launch.ts';

export interface FoldOperand {
  readonly offset: number;
  /** One stride per input dim (0 where the operand does not move along it). */
  readonly strides: readonly number[];
}

/** Parameter-word positions of a fold, for generating the index code. */
export interface FoldLayout {
  /** Kept-dim combinations (output elements / rows) and folded elements per combination. */
  readonly outer: number;
  readonly inner: number;
  /** Words holding `outer` and `inner`. */
  readonly outerWord: number;
  readonly innerWord: number;
  /** WGSL declaring `var <names[k]>` = offset of operand k at outer index `idx`. */
  outerOffsets(idx: string, names: readonly string[]): string;
  /** WGSL declaring `var <names[i]>` = `bases[i]` + offset of operand `which[i]` at folded index `idx`. */
  innerOffsets(
    idx: string,
    which: readonly number[],
    bases: readonly string[],
    names: readonly string[],
  ): string;
}

/** An operand's strides aligned with the input dims: a result without the reduced dims gets 0 there. */
export function alignedStrides(t: Tensor, reduced: readonly boolean[]): number[] {
  if (t.ndim === reduced.length) return [...t.strides];
  const out: number[] = [];
  let k = 0;
  for (const r of reduced) out.push(r ? 0 : t.strides[k++]);
  return out;
}

interface DimWords {
  readonly size: number;
  /** Word of the size; the operands' strides follow it. */
  readonly word: number;
}

function decompose(
  idx: string,
  dims: readonly DimWords[],
  which: readonly number[],
  names: readonly string[],
) {
  if (dims.length === 0) return '';
  const lines = [`  { var r = ${idx};`];
  for (let i = dims.length - 1; i >= 0; i--) {
    const { word } = dims[i];
    const upd = which.map((k, n) => `${names[n]} += c * P[${word + 1 + k}];`).join(' ');
    const c = i === 0 ? 'let c = r;' : `let c = r % P[${word}]; r = r / P[${word}];`;
    lines.push(`    { ${c} ${upd} }`);
  }
  lines.push('  }');
  return lines.join('\n');
}

/** Pushes the fold's words (outer, inner, operand offsets, then per dim its size and operand strides). */
export function foldParams(
  p: Params,
  shape: readonly number[],
  folded: readonly boolean[],
  operands: readonly FoldOperand[],
): FoldLayout {
  let outer = 1;
  let inner = 1;
  shape.forEach((s, d) => {
    if (folded[d]) inner *= s;
    else outer *= s;
  });
  const outerWord = p.length;
  p.u32(outer).u32(inner);
  const offsetWords = operands.map((o) => {
    const w = p.length;
    p.u32(o.offset);
    return w;
  });
  const kept: DimWords[] = [];
  const walked: DimWords[] = [];
  shape.forEach((s, d) => {
    if (s === 1) return;
    (folded[d] ? walked : kept).push({ size: s, word: p.length });
    p.u32(s);
    for (const o of operands) p.u32(o.strides[d]);
  });
  const all = operands.map((_, k) => k);
  return {
    outer,
    inner,
    outerWord,
    innerWord: outerWord + 1,
    outerOffsets(idx, names) {
      const decl = names.map((n, k) => `  var ${n} = P[${offsetWords[k]}];`).join('\n');
      return `${decl}\n${decompose(idx, kept, all.slice(0, names.length), names)}`;
    },
    innerOffsets(idx, which, bases, names) {
      const decl = names.map((n, i) => `  var ${n} = ${bases[i]};`).join('\n');
      return `${decl}\n${decompose(idx, walked, which, names)}`;
    },
  };
}
