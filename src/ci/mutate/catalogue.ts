/**
 * The mutation operators, declared as data like op_db: each names the files it applies to and the sites it
 * rewrites (a regex over one source line and its replacement). Every match of a site on a line is one mutant
 * (that occurrence replaced, the rest of the line kept). They model the small, realistic bugs a kernel author
 * makes: a dropped offset or stride term, a rounding mode, an off-by-one comparison, a lost correction line, a
 * flipped derivative sign, a loosened tolerance, a wrong promotion, a narrowed accumulator, a dropped guard.
 */

/**
 * A rewrite of one line: `find` (its global flag is added) and what one match becomes: a replacement string
 * ($1 for groups) or a function given the match and the line that returns the whole new line (null: no mutant).
 */
export interface Site {
  readonly find: RegExp;
  readonly replace: string | ((match: RegExpExecArray, line: string) => string | null);
  /** The line must also match this (e.g. only lines that compute a gradient). */
  readonly line?: RegExp;
  /** The next line must match this (a guard whose `throw` sits on the next line). */
  readonly next?: RegExp;
  /** Only matches in code: not in a quoted string, nor in a template that is an error message (prose). */
  readonly codeOnly?: boolean;
}

export interface MutationOperator {
  readonly id: string;
  readonly title: string;
  /** Repository paths (relative, '/'-separated) the operator applies to. */
  readonly files: RegExp;
  readonly sites: readonly Site[];
}

/** The runtime's source; tolerances also live in the oracles and op_db. */
const RUNTIME = /^src\/runtime\/.*\.ts$/;
const KERNELS = /^src\/runtime\/(ops|backends|core)\/.*\.ts$/;

/** `x` * 10 as source text (a literal like 1e-5 stays readable: 1e-4). */
function times10(literal: string): string {
  const v = Number(literal) * 10;
  return Number.isFinite(v) ? String(Number(v.toPrecision(6))) : literal;
}

/** A tolerance literal (group 3, after name and separator) times 10. */
const scaled = (m: RegExpExecArray, line: string): string | null => {
  const v = times10(m[3]);
  if (v === m[3]) return null;
  return `${line.slice(0, m.index)}${m[1]}${m[2]}${v}${line.slice(m.index + m[0].length)}`;
};

/** The index of the ')' closing the '(' at `open`, and of the first top-level ',' inside; null if unbalanced. */
function balanced(text: string, open: number): { close: number; comma: number | null } | null {
  let depth = 0;
  let comma: number | null = null;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ',' && depth === 1 && comma === null) comma = i;
    else if ((ch === ')' || ch === ']' || ch === '}') && --depth === 0) return { close: i, comma };
  }
  return null;
}

/** The call matched (`name(` ending the match) replaced by its first argument: `f(a, b)` -> `a`. */
function firstArgument(m: RegExpExecArray, line: string): string | null {
  const open = m.index + m[0].length - 1;
  const b = balanced(line, open);
  if (!b) return null;
  const arg = line.slice(open + 1, b.comma ?? b.close).trim();
  return line.slice(0, m.index) + arg + line.slice(b.close + 1);
}

export const OPERATORS: readonly MutationOperator[] = [
  {
    id: 'drop-offset',
    title: 'drop a storage offset',
    files: KERNELS,
    sites: [
      { find: /\b[\w.]+\.storageOffset \+ /, replace: '' },
      { find: / \+ [\w.]+\.storageOffset\b/, replace: '' },
    ],
  },
  {
    id: 'drop-stride-term',
    title: 'drop a stride term of an index',
    files: KERNELS,
    sites: [
      { find: / \+ \(?\w+ \* [\w.]*(?:strides|Strides|stride)(?:\[\w+\])+\)?/, replace: '' },
      {
        find: / \+ \w+ \* [a-z]\w{0,3}(?=\s*[;,)+\]]|$)/,
        replace: '',
        line: /Offset|offset|\bbase\b|\bat\b/,
      },
      { find: /\b(\w+) \+= ([\w.]*(?:strides|stride)(?:\[\w+\])+)/, replace: '$1 += 0' },
    ],
  },
  {
    id: 'round-toward-zero',
    title: 'round toward zero instead of to nearest even in a float16/bfloat16 store',
    files: /^src\/runtime\/(core\/half|backends\/cpu\/codegen|backends\/webgpu\/.*)\.ts$/,
    sites: [
      { find: /const rounding = 0x7fff \+ \(\(b >>> 16\) & 1\);/, replace: 'const rounding = 0;' },
      { find: /if \(rem > 0x1000 \|\| \(rem === 0x1000 && h & 1\)\) h\+\+;/, replace: '' },
      { find: /if \(rem > half \|\| \(rem === half && h & 1\)\) h\+\+;/, replace: '' },
    ],
  },
  {
    id: 'swap-comparison',
    title: 'swap a comparison (> with >=, < with <=)',
    files: KERNELS,
    sites: [
      // WGSL kernels are code inside templates; 'sizes >= 0' in an error's `expected` is prose.
      { find: / > (?!=)/, replace: ' >= ', codeOnly: true },
      { find: / >= /, replace: ' > ', codeOnly: true },
      { find: / < (?!=)/, replace: ' <= ', codeOnly: true },
      { find: / <= /, replace: ' < ', codeOnly: true },
    ],
  },
  {
    id: 'remove-correction',
    title: 'remove a correction (floor division, sum-to-size, max subtraction, version bump)',
    files: RUNTIME,
    sites: [
      // floor division: the step from truncation to floor
      { find: /^(\s*)if \(.+\) \w+ [-+]= 1n?;/, replace: '$1' },
      { find: /\? q - 1n : q/, replace: ': q' },
      // sum-to-size: a broadcast input's gradient reduced back to its shape
      { find: /\bsumToSize\(/, replace: firstArgument },
      // softmax's max subtraction
      { find: /(\{x\}) - m\b/, replace: '$1' },
      { find: /\bx - m\b/, replace: 'x', line: /exp/ },
      // version counters
      { find: /^(\s*)[\w.]+\.bumpVersion\(\);/, replace: '$1' },
      { find: /^(\s*)this\.storage\.version\+\+;/, replace: '$1' },
    ],
  },
  {
    id: 'negate-derivative',
    title: "flip a derivative's sign",
    files: RUNTIME,
    sites: [
      { find: /\bmul\((c\.grad|grad|g)\b,/, replace: 'mul(mul($1, -1),' },
      { find: /\bdiv\((c\.grad|grad|g)\b,/, replace: 'div(mul($1, -1),', line: /\bmul\b/ },
      { find: /\bneg\(/, replace: firstArgument, line: /\bgrad\b|c\.grad/ },
    ],
  },
  {
    id: 'scale-tolerance',
    title: 'scale a tolerance by 10',
    files:
      /^(src\/oracles\/(tolerances|gradcheck|grad|compare|crossbackend|golden\/.*)|op_db\/(ops\/.*|deviations|families\/.*))\.ts$/,
    sites: [
      { find: /\b(rtol|atol)(: | = )([0-9][0-9.e-]*)(?![\w.])/, replace: scaled },
      { find: /\b(\w*(?:TOL|Tol|tol)\w*)( = )([0-9][0-9.e-]*)(?![\w.])/, replace: scaled },
    ],
  },
  {
    id: 'promotion-entry',
    title: 'change a type promotion entry',
    files: /^src\/runtime\/core\/(promotion|scalar)\.ts$/,
    sites: [
      { find: /'float32'/, replace: "'float64'" },
      { find: /'int64'/, replace: "'int32'" },
      { find: /'complex64'/, replace: "'complex128'" },
      { find: /\? a : b\b/, replace: '? b : a' },
    ],
  },
  {
    id: 'narrow-accumulator',
    title: 'narrow an accumulator dtype',
    files: KERNELS,
    sites: [
      { find: /\bnew Float64Array\(/, replace: 'new Float32Array(' },
      { find: /(acc\w*|accumulate\w*|opmath\w*)(: |: DType = | = )'float64'/, replace: "$1$2'float32'" },
      { find: /\bMath\.fround\((\w+) \+ /, replace: 'Math.fround($1 + ' },
    ],
  },
  {
    id: 'drop-guard',
    title: 'drop a guard (its condition becomes false)',
    files: RUNTIME,
    sites: [
      { find: /\bif \((.+)\) throw\b/, replace: 'if (false) throw' },
      { find: /\bif \((.+)\)$/, replace: 'if (false)', next: /^\s*throw\b/ },
      { find: /\bif \((.+)\) \{$/, replace: 'if (false) {', next: /^\s*throw\b/ },
      {
        find: /\bif \((.+)\) return (false|null|undefined);/,
        replace: 'if (false) return $2;',
        line: /guard|Guard|match|same|equal/,
      },
    ],
  },
];
