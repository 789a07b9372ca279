/**
 * PyTorch operator schemas: `name.overload(Type arg=default, *, kwarg) -> Ret`, with alias annotations
 * (`Tensor(a)` aliases set a, `Tensor(a!)` writes to it, `Tensor(a -> *)` may end up in any set). Parsed once
 * at registration by a small recursive-descent parser that follows TorchScript's schema grammar
 * (torch/csrc/jit/frontend/function_schema_parser.cpp), so every aten schema of PyTorch 1.13 parses.
 */
import { SchemaParseError } from '../core/index.ts';

import type { AliasInfo, ArgType, Argument, BaseType, Return, Schema } from './schema_types.ts';

const SIMPLE_TYPES = new Set<string>([
  'Tensor',
  'Scalar',
  'int',
  'SymInt',
  'float',
  'bool',
  'complex',
  'str',
  'ScalarType',
  'Device',
  'Layout',
  'MemoryFormat',
  'Generator',
  'Dimname',
  'Storage',
  'Stream',
  'QScheme',
  'Any',
  'AnyEnumType',
]);
const CONTAINERS = new Set<string>(['Dict', 'Future', 'RRef']);

/** A cursor over one schema string; every parse step consumes from `pos` and fails with the whole text. */
class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  fail(why: string): never {
    throw new SchemaParseError(`cannot parse schema: ${why} at column ${this.pos}`, { got: this.text });
  }
  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }
  peek(s: string): boolean {
    this.skipSpace();
    return this.text.startsWith(s, this.pos);
  }
  eat(s: string): boolean {
    if (!this.peek(s)) return false;
    this.pos += s.length;
    return true;
  }
  expect(s: string): void {
    if (!this.eat(s)) this.fail(`expected '${s}'`);
  }
  /** An identifier, optionally dotted (`__torch__.torch.classes.rnn.CellParamsBase`). */
  ident(dotted = false): string {
    this.skipSpace();
    const re = dotted ? /[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*/y : /[A-Za-z_][\w]*/y;
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (!m) this.fail('expected an identifier');
    this.pos += m[0].length;
    return m[0];
  }
  atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.text.length;
  }
}

const makeType = (base: BaseType, extra: Partial<ArgType> = {}): ArgType => ({
  base,
  isList: false,
  listSize: null,
  optional: false,
  elementOptional: false,
  alias: null,
  elementAlias: null,
  contained: [],
  typeName: null,
  ...extra,
});

/** `(a)`, `(a!)`, `(a -> *)`, `(b|a)`, `(*)`, `(a! -> a|b)`: only when the parenthesis holds an annotation. */
function parseAlias(c: Cursor): AliasInfo | null {
  c.skipSpace();
  if (!/^\(\s*(?:[A-Za-z_]\w*|\*)\s*(?:!|\||->|\))/.test(c.text.slice(c.pos))) return null;
  c.expect('(');
  const sets = (): string[] => {
    const out: string[] = [];
    do out.push(c.eat('*') ? '*' : c.ident());
    while (c.eat('|'));
    return out;
  };
  const before = sets();
  const isWrite = c.eat('!');
  const after = c.eat('->') ? sets() : [];
  if (after.length) c.eat('!');
  c.expect(')');
  return { set: before[0], isWrite, sets: before, afterSets: after };
}

function parseTypeAt(c: Cursor): ArgType {
  let t: ArgType;
  c.skipSpace();
  if (c.peek('(')) {
    // A tuple type: `(int, tVal)`.
    c.expect('(');
    const items: ArgType[] = [];
    if (!c.peek(')')) {
      do items.push(parseTypeAt(c));
      while (c.eat(','));
    }
    c.expect(')');
    t = makeType('Tuple', { contained: items });
  } else {
    const name = c.ident(true);
    if (CONTAINERS.has(name)) {
      c.expect('(');
      const items: ArgType[] = [];
      do items.push(parseTypeAt(c));
      while (c.eat(','));
      c.expect(')');
      t = makeType(name as BaseType, { contained: items });
    } else if (SIMPLE_TYPES.has(name)) t = makeType(name as BaseType);
    else if (name.includes('.')) t = makeType('Class', { typeName: name });
    else if (/^t\w*$/.test(name)) t = makeType('TypeVar', { typeName: name });
    else c.fail(`unknown type '${name}'`);
  }
  const alias = parseAlias(c);
  if (alias) t = { ...t, alias };
  // Suffixes, innermost first: `Tensor?[]?` is an optional list of optional tensors.
  for (;;) {
    if (c.eat('?')) {
      t = { ...t, optional: true };
      continue;
    }
    if (c.peek('[')) {
      c.expect('[');
      c.skipSpace();
      const m = /\d*/y;
      m.lastIndex = c.pos;
      const digits = m.exec(c.text)?.[0] ?? '';
      c.pos += digits.length;
      c.expect(']');
      if (t.isList) c.fail('nested lists are not supported');
      const listAlias = parseAlias(c);
      t = {
        ...t,
        isList: true,
        listSize: digits ? Number(digits) : null,
        optional: false,
        elementOptional: t.optional,
        alias: listAlias ?? t.alias,
        elementAlias: t.alias,
      };
      continue;
    }
    return t;
  }
}

/** Parses one type (`Tensor(a!)[]`, `int[2]?`, `Dict(str, t)`); exported for tests and listings. */
export function parseType(text: string): ArgType {
  const c = new Cursor(text);
  const t = parseTypeAt(c);
  if (!c.atEnd()) c.fail('unexpected text after the type');
  return t;
}

const UNESCAPE: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', '0': '\0' };

/** Reads a default value's source text: a string literal, a bracketed list, or a run up to `,` / `)`. */
function defaultSource(c: Cursor): string {
  c.skipSpace();
  const start = c.pos;
  let depth = 0;
  while (c.pos < c.text.length) {
    const ch = c.text[c.pos];
    if (ch === '"' || ch === "'") {
      c.pos++;
      while (c.pos < c.text.length && c.text[c.pos] !== ch) c.pos += c.text[c.pos] === '\\' ? 2 : 1;
      if (c.pos >= c.text.length) c.fail('unterminated string default');
      c.pos++;
      continue;
    }
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || (ch === ')' && depth > 0)) depth--;
    else if ((ch === ',' || ch === ')') && depth === 0) break;
    c.pos++;
  }
  const src = c.text.slice(start, c.pos).trim();
  if (!src) c.fail('empty default value');
  return src;
}

function parseDefault(v: string, c: Cursor): unknown {
  if (v === 'None') return null;
  if (v === 'True') return true;
  if (v === 'False') return false;
  if (/^[+-]?inf$/.test(v)) return v.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (v === 'nan') return Number.NaN;
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(v)) return Number(v);
  if (/^".*"$|^'.*'$/s.test(v))
    return v.slice(1, -1).replace(/\\(.)/g, (_, ch: string) => UNESCAPE[ch] ?? ch);
  if (v.startsWith('[') && v.endsWith(']')) {
    const inner = v.slice(1, -1).trim();
    if (!inner) return [];
    const items: unknown[] = [];
    const sub = new Cursor(`${inner})`);
    for (;;) {
      items.push(parseDefault(defaultSource(sub), sub));
      if (!sub.eat(',')) break;
    }
    return items;
  }
  if (/^[A-Za-z_][\w.]*$/.test(v)) return v; // enum-like defaults: contiguous_format, Mean
  return c.fail(`bad default '${v}'`);
}

function parseArgs(c: Cursor): { args: Argument[]; isVararg: boolean } {
  const args: Argument[] = [];
  let kwargOnly = false;
  let isVararg = false;
  c.expect('(');
  if (c.eat(')')) return { args, isVararg };
  do {
    if (c.eat('...')) {
      isVararg = true;
      continue;
    }
    if (c.peek('*') && !c.peek('*)')) {
      c.expect('*');
      kwargOnly = true;
      continue;
    }
    const type = parseTypeAt(c);
    const name = c.ident();
    let defaultText: string | null = null;
    let defaultValue: unknown;
    if (c.eat('=')) {
      defaultText = defaultSource(c);
      defaultValue = parseDefault(defaultText, c);
    }
    args.push({ name, type, kwargOnly, hasDefault: defaultText !== null, defaultValue, defaultText });
  } while (c.eat(','));
  c.expect(')');
  return { args, isVararg };
}

function parseReturns(c: Cursor): { returns: Return[]; tuple: boolean } {
  const one = (): Return => {
    const type = parseTypeAt(c);
    c.skipSpace();
    const name = /[A-Za-z_]/.test(c.text[c.pos] ?? '') ? c.ident() : null;
    return { name, type };
  };
  c.skipSpace();
  // `-> (Tensor, Tensor)` is a return list; `-> (int, tVal)[]` is one list-of-tuples return.
  if (c.peek('(')) {
    const save = c.pos;
    c.expect('(');
    const returns: Return[] = [];
    if (!c.peek(')')) {
      do returns.push(one());
      while (c.eat(','));
    }
    c.expect(')');
    if (c.atEnd()) return { returns, tuple: true };
    c.pos = save;
  }
  return { returns: [one()], tuple: false };
}

export function parseSchema(text: string): Schema {
  const trimmed = text.trim();
  const c = new Cursor(trimmed);
  const ns = /^\w+::/.exec(trimmed);
  if (ns) c.pos = ns[0].length;
  if (!/^[A-Za-z_]\w*(?:\.\w+)?\s*\(/.test(trimmed.slice(c.pos)) || !trimmed.includes('->')) {
    c.fail('expected name(args) -> returns');
  }
  const name = c.ident();
  const overload = c.eat('.') ? c.ident() : '';
  const { args, isVararg } = parseArgs(c);
  c.expect('->');
  const { returns, tuple } = parseReturns(c);
  if (!c.atEnd()) c.fail('unexpected text after the returns');
  return {
    name,
    overload,
    qualifiedName: overload ? `${name}.${overload}` : name,
    args,
    returns,
    text: trimmed.slice(ns ? ns[0].length : 0),
    mutates: args.some((a) => a.type.alias?.isWrite === true || a.type.elementAlias?.isWrite === true),
    isVararg,
    returnsTuple: tuple,
  };
}
