/** PyTorch operator schemas printed back in PyTorch's spelling: parseSchema(formatSchema(s)) round-trips. */
import type { AliasInfo, ArgType, Schema } from './schema_types.ts';

function formatAlias(a: AliasInfo | null): string {
  if (!a) return '';
  const after = a.afterSets.length ? ` -> ${a.afterSets.join('|')}` : '';
  return `(${a.sets.join('|')}${a.isWrite ? '!' : ''}${after})`;
}

/** Renders the type back to PyTorch's spelling (used by listings and tests of the round trip). */
export function formatType(t: ArgType): string {
  let base: string;
  if (t.base === 'Tuple') base = `(${t.contained.map(formatType).join(', ')})`;
  else if (t.contained.length) base = `${t.base}(${t.contained.map(formatType).join(', ')})`;
  else base = t.typeName ?? t.base;
  if (!t.isList) return `${base}${formatAlias(t.alias)}${t.optional ? '?' : ''}`;
  const listAlias = t.alias !== t.elementAlias ? formatAlias(t.alias) : '';
  return `${base}${formatAlias(t.elementAlias)}${t.elementOptional ? '?' : ''}[${t.listSize ?? ''}]${listAlias}${t.optional ? '?' : ''}`;
}

/** Renders a whole schema in PyTorch's spelling (without namespace); parse(format(s)) round-trips. */
export function formatSchema(s: Schema): string {
  const parts: string[] = [];
  let kw = false;
  for (const a of s.args) {
    if (a.kwargOnly && !kw) {
      parts.push('*');
      kw = true;
    }
    parts.push(`${formatType(a.type)} ${a.name}${a.defaultText !== null ? `=${a.defaultText}` : ''}`);
  }
  if (s.isVararg) parts.push('...');
  const rets = s.returns.map((r) => `${formatType(r.type)}${r.name ? ` ${r.name}` : ''}`);
  const ret = s.returnsTuple ? `(${rets.join(', ')})` : rets[0];
  return `${s.qualifiedName}(${parts.join(', ')}) -> ${ret}`;
}
