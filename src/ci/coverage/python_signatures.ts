/**
 * PyTorch 1.13's Python signatures (`op_db/torch_python_signatures.txt`, made by tools/python_surface/extract.py
 * from the generated stubs and `inspect.signature`), parsed, and a binder that decides, as Python's argument
 * parser does, whether a call's positional and keyword arguments fit a signature: every positional argument has a
 * place, every keyword names a parameter not already given, every parameter without a default is given, and, for
 * a builtin (a stub's or a docstring's signature, parsed by PyTorch's C++ argument parser), each value is of the
 * parameter's annotated type.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DTYPES, Generator, Scalar, Tensor } from '../../runtime/index.ts';
import { CiError } from '../errors.ts';

const REPO = resolve(import.meta.dirname, '../../..');
export const PYTHON_SIGNATURES = resolve(REPO, 'op_db/torch_python_signatures.txt');

export type ParamKind = 'positional' | 'keyword' | 'varargs' | 'varkw';

export interface PyParam {
  readonly name: string;
  /** positional: positional or keyword; keyword: keyword-only (after `*` or `*args`). */
  readonly kind: ParamKind;
  readonly hasDefault: boolean;
  /** The annotation as written (`Optional[_dtype]`), or null. */
  readonly type: string | null;
}

export interface PySignature {
  /** `torch.add`, `Tensor.add_`, `torch.nn.functional.relu`. */
  readonly name: string;
  /** Where it was read: a stub (`_VariableFunctions.pyi`), a Python file, or `docstring`. */
  readonly source: string;
  /** The parameter list as the file writes it, return annotation included. */
  readonly text: string;
  readonly params: readonly PyParam[];
}

/** Splits `s` at top-level commas (outside brackets and quotes). */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote && s[i - 1] !== '\\') quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = s.slice(start).trim();
  if (last) out.push(last);
  return out;
}

/** The parameters of `(a, b: T=1, *, c=None) -> R`. */
export function parseParams(text: string): PyParam[] {
  let depth = 0;
  let end = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) {
      end = i;
      break;
    }
  }
  if (!text.startsWith('(') || end < 0)
    throw new CiError('E_FILE_INVALID', `python signatures: not a parameter list: ${text}`);
  const params: PyParam[] = [];
  let keywordOnly = false;
  for (const p of splitTop(text.slice(1, end))) {
    if (p === '/') continue;
    if (p === '*') {
      keywordOnly = true;
      continue;
    }
    const at = topLevelIndex(p, '=');
    const head = (at >= 0 ? p.slice(0, at) : p).trim();
    const colon = topLevelIndex(head, ':');
    const rawName = (colon >= 0 ? head.slice(0, colon) : head).trim();
    const type = colon >= 0 ? head.slice(colon + 1).trim() : null;
    if (rawName.startsWith('**'))
      params.push({ name: rawName.slice(2), kind: 'varkw', hasDefault: true, type });
    else if (rawName.startsWith('*')) {
      params.push({ name: rawName.slice(1), kind: 'varargs', hasDefault: true, type });
      keywordOnly = true;
    } else
      params.push({ name: rawName, kind: keywordOnly ? 'keyword' : 'positional', hasDefault: at >= 0, type });
  }
  return params;
}

function topLevelIndex(s: string, ch: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ch && depth === 0) return i;
  }
  return -1;
}

let cached: ReadonlyMap<string, readonly PySignature[]> | null = null;

/** Every signature of the file by name, in file order (cached per process). */
export function pythonSignatures(
  path: string = PYTHON_SIGNATURES,
): ReadonlyMap<string, readonly PySignature[]> {
  if (path === PYTHON_SIGNATURES && cached) return cached;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new CiError('E_FILE_NOT_FOUND', `python signatures: ${path} does not exist`);
  }
  const out = new Map<string, PySignature[]>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [name, source, sig] = line.split('\t');
    const entry = { name, source, text: sig, params: parseParams(sig) };
    out.set(name, [...(out.get(name) ?? []), entry]);
  }
  if (path === PYTHON_SIGNATURES) cached = out;
  return out;
}

/** A type expression: `Name` or `Name[arg, ...]`. */
interface TypeNode {
  readonly name: string;
  readonly args: readonly TypeNode[];
}

const parsedTypes = new Map<string, TypeNode>();

function parseType(s: string): TypeNode {
  const hit = parsedTypes.get(s);
  if (hit) return hit;
  const t = s.trim();
  const open = t.indexOf('[');
  const node =
    open < 0 || !t.endsWith(']')
      ? { name: t, args: [] }
      : { name: t.slice(0, open).trim(), args: splitTop(t.slice(open + 1, -1)).map(parseType) };
  parsedTypes.set(s, node);
  return node;
}

const isInt = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
const isNumber = (v: unknown) =>
  typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || v instanceof Scalar;
const isString = (v: unknown) => typeof v === 'string';

/** Leaf types: what a JavaScript value must be to stand for them (dtypes, devices, layouts are strings here). */
const LEAF: Record<string, (v: unknown) => boolean> = {
  Tensor: (v) => v instanceof Tensor,
  Number: isNumber,
  _float: isNumber,
  float: isNumber,
  _complex: isNumber,
  complex: isNumber,
  _int: isInt,
  int: isInt,
  SymInt: isInt,
  'torch.SymIntNode': isInt,
  'torch.SymFloatNode': isNumber,
  _bool: (v) => typeof v === 'boolean',
  bool: (v) => typeof v === 'boolean',
  _size: (v) => Array.isArray(v) && v.every(isInt),
  str: isString,
  _dtype: (v) => typeof v === 'string' && (DTYPES as readonly string[]).includes(v),
  _device: isString,
  _layout: isString,
  memory_format: isString,
  _qscheme: () => false,
  Generator: (v) => v instanceof Generator,
  ellipsis: () => false,
  Storage: () => false,
  None: (v) => v === null || v === undefined,
  Any: () => true,
};

/** Whether value `v` is of annotated type `type` (null: unannotated, anything goes). */
export function accepts(type: string | null, v: unknown): boolean {
  return type === null ? true : fits(parseType(type), v);
}

function fits(t: TypeNode, v: unknown): boolean {
  switch (t.name) {
    case 'Optional':
      return v === null || v === undefined || fits(t.args[0], v);
    case 'Union':
      return t.args.some((a) => fits(a, v));
    case 'Sequence':
    case 'List':
    case 'Tuple':
    case 'tuple':
    case 'list': {
      if (!Array.isArray(v)) return false;
      if (t.args.length === 0) return true;
      // Tuple[T, ...] is any length; Tuple[A, B] exactly those.
      if (t.name.toLowerCase() === 'tuple' && !(t.args.length === 2 && t.args[1].name === '...'))
        return v.length === t.args.length && v.every((x, i) => fits(t.args[i], x));
      return v.every((x) => fits(t.args[0], x));
    }
    default:
      return (LEAF[t.name] ?? (() => true))(v);
  }
}

/**
 * Binds `args` and `kwargs` to `sig` as Python would: the names of the parameters given explicitly (a `*args`
 * parameter by its name when it took anything), or null when the call does not fit.
 */
export function bindPython(
  sig: PySignature,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): string[] | null {
  // Python functions do not check their annotations (and inspect writes some as None); the C++ argument parser
  // behind the stubs' builtins does.
  const typed = !sig.source.endsWith('.py');
  const fits = (p: PyParam, v: unknown) => !typed || accepts(p.type, v);
  const given: string[] = [];
  const positional = sig.params.filter((p) => p.kind === 'positional');
  const varargs = sig.params.find((p) => p.kind === 'varargs');
  const varkw = sig.params.find((p) => p.kind === 'varkw');
  if (args.length > positional.length && !varargs) return null;
  for (let i = 0; i < args.length; i++) {
    const p = i < positional.length ? positional[i] : (varargs as PyParam);
    if (!fits(p, args[i])) return null;
    if (!given.includes(p.name)) given.push(p.name);
  }
  for (const [k, v] of Object.entries(kwargs)) {
    if (v === undefined) continue;
    const p = sig.params.find((x) => x.name === k && (x.kind === 'positional' || x.kind === 'keyword'));
    if (!p) {
      if (!varkw) return null;
      given.push(k);
      continue;
    }
    if (given.includes(k) || !fits(p, v)) return null;
    given.push(k);
  }
  for (const p of sig.params)
    if ((p.kind === 'positional' || p.kind === 'keyword') && !p.hasDefault && !given.includes(p.name))
      return null;
  return given;
}
