/**
 * PyTorch operator schemas: `name.overload(Type arg=default, *, kwarg) -> Ret`, with alias annotations
 * (`Tensor(a)` aliases set a, `Tensor(a!)` writes to it). Parsed once at registration.
 */
import { SchemaParseError } from '../core/index.ts';

export type BaseType =
  | 'Tensor'
  | 'Scalar'
  | 'int'
  | 'SymInt'
  | 'float'
  | 'bool'
  | 'str'
  | 'ScalarType'
  | 'Device'
  | 'Layout'
  | 'MemoryFormat'
  | 'Generator'
  | 'Dimname';

export interface AliasInfo {
  readonly set: string;
  readonly isWrite: boolean;
}

export interface ArgType {
  readonly base: BaseType;
  readonly isList: boolean;
  /** `int[2]`: a fixed-size list that also accepts one int (broadcast). */
  readonly listSize: number | null;
  readonly optional: boolean;
  readonly alias: AliasInfo | null;
}

export interface Argument {
  readonly name: string;
  readonly type: ArgType;
  readonly kwargOnly: boolean;
  readonly hasDefault: boolean;
  /** Parsed default: number, boolean, string, null (None) or number[]. */
  readonly defaultValue: unknown;
}

export interface Return {
  readonly name: string | null;
  readonly type: ArgType;
}

export interface Schema {
  readonly name: string;
  readonly overload: string;
  /** `name.overload`, or `name` when the overload is empty. */
  readonly qualifiedName: string;
  readonly args: readonly Argument[];
  readonly returns: readonly Return[];
  readonly text: string;
  /** True for `name_` ops and `.out` overloads: some argument is written (`!`). */
  readonly mutates: boolean;
}

const BASE_TYPES = new Set<string>([
  'Tensor', 'Scalar', 'int', 'SymInt', 'float', 'bool', 'str', 'ScalarType', 'Device', 'Layout', 'MemoryFormat', 'Generator', 'Dimname',
]);

function fail(text: string, why: string): never {
  throw new SchemaParseError(`cannot parse schema: ${why}`, { got: text });
}

/** Splits on commas that are not inside brackets or parentheses. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

export function parseType(t: string, text: string): ArgType {
  const m = /^(\w+)(?:\((\w+)(!?)\))?(?:\[(\d*)\])?(\?)?$/.exec(t.trim());
  if (!m || !BASE_TYPES.has(m[1])) fail(text, `unknown type '${t}'`);
  const [, base, aliasSet, bang, listSize, opt] = m;
  return {
    base: base as BaseType,
    isList: listSize !== undefined,
    listSize: listSize ? Number(listSize) : null,
    optional: opt === '?',
    alias: aliasSet ? { set: aliasSet, isWrite: bang === '!' } : null,
  };
}

function parseDefault(v: string, text: string): unknown {
  if (v === 'None') return null;
  if (v === 'True') return true;
  if (v === 'False') return false;
  if (/^-?\d+(\.\d*)?(e-?\d+)?$/.test(v)) return Number(v);
  if (/^".*"$|^'.*'$/.test(v)) return v.slice(1, -1);
  if (v.startsWith('[')) {
    const inner = v.slice(1, -1).trim();
    return inner ? inner.split(',').map((x) => parseDefault(x.trim(), text)) : [];
  }
  if (/^\w+$/.test(v)) return v; // enum-like defaults: contiguous_format, Mean
  return fail(text, `bad default '${v}'`);
}

export function parseSchema(text: string): Schema {
  const m = /^(?:aten::)?([\w.]+?)(?:\.(\w+))?\((.*)\)\s*->\s*(.+)$/.exec(text.trim());
  if (!m) fail(text, 'expected name(args) -> returns');
  const [, name, overload = '', argText, retText] = m;
  const args: Argument[] = [];
  let kwargOnly = false;
  for (const part of splitTopLevel(argText)) {
    if (part === '*') {
      kwargOnly = true;
      continue;
    }
    const am = /^(.+?)\s+(\w+)(?:=(.+))?$/.exec(part);
    if (!am) fail(text, `bad argument '${part}'`);
    const [, type, argName, def] = am;
    args.push({
      name: argName,
      type: parseType(type, text),
      kwargOnly,
      hasDefault: def !== undefined,
      defaultValue: def === undefined ? undefined : parseDefault(def.trim(), text),
    });
  }
  const retInner = retText.trim().startsWith('(') ? retText.trim().slice(1, -1) : retText.trim();
  const returns: Return[] = retInner === ''
    ? []
    : splitTopLevel(retInner).map((r) => {
        const rm = /^(.+?)(?:\s+(\w+))?$/.exec(r);
        if (!rm) fail(text, `bad return '${r}'`);
        return { name: rm[2] ?? null, type: parseType(rm[1], text) };
      });
  return {
    name,
    overload,
    qualifiedName: overload ? `${name}.${overload}` : name,
    args,
    returns,
    text: text.trim().replace(/^aten::/, ''),
    mutates: args.some((a) => a.type.alias?.isWrite === true),
  };
}

/** Renders the type back to PyTorch's spelling (used by listings and tests of the round trip). */
export function formatType(t: ArgType): string {
  const alias = t.alias ? `(${t.alias.set}${t.alias.isWrite ? '!' : ''})` : '';
  const list = t.isList ? `[${t.listSize ?? ''}]` : '';
  return `${t.base}${alias}${list}${t.optional ? '?' : ''}`;
}
