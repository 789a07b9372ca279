/**
 * Schema backward/forward compatibility, per overload, after PyTorch's FunctionSchema
 * `isBackwardCompatibleWith` / `isForwardCompatibleWith` (aten/src/ATen/core/function_schema.cpp):
 * arguments are compared by position, the leading (non-out) arguments and the trailing out arguments
 * separately; an old argument's name, alias annotation, type, default and positional-ness must survive.
 *
 * Every difference becomes a `SchemaChange` with a severity:
 * - `bc`: an old caller (or a serialized call) breaks on the new runtime: removed overload, removed / renamed /
 *   moved argument, type or alias change, default changed or removed, new argument without a default,
 *   positional -> keyword-only, return change, vararg change.
 * - `fc`: old callers are fine, but a caller written against the new schema fails on the old runtime: a new
 *   argument with a default, a default added, an argument type widened (`int` -> `int?`), keyword-only ->
 *   positional, a return type narrowed. Reported as warnings.
 * - `info`: a new overload.
 *
 * Pure functions over parsed schemas or `{qualifiedName: schemaText}` maps; no files.
 */
import { parseSchema, type Schema } from '../../runtime/index.ts';

type Argument = Schema['args'][number];
type Return = Schema['returns'][number];
type ArgType = Argument['type'];
type AliasInfo = NonNullable<ArgType['alias']>;

/** Qualified overload name (`add.Tensor`) -> schema text without namespace. */
export type SchemaMap = Readonly<Record<string, string>>;

export type Severity = 'bc' | 'fc' | 'info';

export const BC_KINDS = [
  'removed_overload',
  'removed_arg',
  'renamed_arg',
  'moved_arg',
  'type_changed',
  'alias_changed',
  'default_changed',
  'default_removed',
  'added_arg_without_default',
  'kwarg_only_move',
  'return_changed',
  'vararg_changed',
] as const;
export const FC_KINDS = [
  'added_arg_with_default',
  'default_added',
  'type_widened',
  'kwarg_only_relaxed',
  'return_narrowed',
] as const;
export const INFO_KINDS = ['added_overload'] as const;

export type ChangeKind = (typeof BC_KINDS)[number] | (typeof FC_KINDS)[number] | (typeof INFO_KINDS)[number];

export interface SchemaChange {
  /** Qualified overload name (`add.Tensor`). */
  readonly op: string;
  readonly severity: Severity;
  readonly kind: ChangeKind;
  /** The argument concerned, if any. */
  readonly arg: string | null;
  /** The old and new piece (schema, argument, type, default or returns), as schema text; null when absent. */
  readonly old: string | null;
  readonly new: string | null;
  readonly message: string;
}

const severityOf = (kind: ChangeKind): Severity =>
  (BC_KINDS as readonly string[]).includes(kind)
    ? 'bc'
    : (FC_KINDS as readonly string[]).includes(kind)
      ? 'fc'
      : 'info';

function aliasText(a: AliasInfo | null): string {
  if (!a) return '';
  const after = a.afterSets.length ? ` -> ${a.afterSets.join('|')}` : '';
  return `(${a.sets.join('|')}${a.isWrite ? '!' : ''}${after})`;
}

/** A type in schema spelling (as the runtime's `formatType`), optionally without alias annotations. */
export function typeText(t: ArgType, withAlias = true): string {
  const alias = (a: AliasInfo | null) => (withAlias ? aliasText(a) : '');
  let base: string;
  if (t.base === 'Tuple') base = `(${t.contained.map((c) => typeText(c, withAlias)).join(', ')})`;
  else if (t.contained.length)
    base = `${t.base}(${t.contained.map((c) => typeText(c, withAlias)).join(', ')})`;
  else base = t.typeName ?? t.base;
  if (!t.isList) return `${base}${alias(t.alias)}${t.optional ? '?' : ''}`;
  const listAlias = t.alias !== t.elementAlias ? alias(t.alias) : '';
  return `${base}${alias(t.elementAlias)}${t.elementOptional ? '?' : ''}[${t.listSize ?? ''}]${listAlias}${t.optional ? '?' : ''}`;
}

const argText = (a: Argument): string =>
  `${a.kwargOnly ? '*, ' : ''}${typeText(a.type)} ${a.name}${a.defaultText !== null ? `=${a.defaultText}` : ''}`;

const returnsText = (s: Schema): string => {
  const rets = s.returns.map((r) => `${typeText(r.type)}${r.name ? ` ${r.name}` : ''}`);
  return s.returnsTuple || rets.length !== 1 ? `(${rets.join(', ')})` : rets[0];
};

const NUMBER_TYPES = new Set(['int', 'float', 'complex']);

/**
 * `a <: b` on types without alias annotations, after TorchScript's `isSubtypeOf` for what schemas use:
 * `T <: T?`, `int | float | complex <: Scalar`, everything `<: Any`; lists and containers are invariant.
 */
export function isSubtype(a: ArgType, b: ArgType): boolean {
  if (typeText(a, false) === typeText(b, false)) return true;
  if (!b.isList && b.base === 'Any') return true;
  if (b.optional) return isSubtype(a.optional ? { ...a, optional: false } : a, { ...b, optional: false });
  if (a.optional || a.isList || b.isList || a.contained.length || b.contained.length) return false;
  return b.base === 'Scalar' && NUMBER_TYPES.has(a.base);
}

const sameAlias = (a: ArgType, b: ArgType): boolean =>
  aliasText(a.alias) === aliasText(b.alias) && aliasText(a.elementAlias) === aliasText(b.elementAlias);

/** PyTorch's `findFirstOutArg`: the first keyword-only argument that is written (`Tensor(a!) out`). */
function firstOutArg(args: readonly Argument[]): number {
  const i = args.findIndex((a) => a.kwargOnly && a.type.alias?.isWrite === true);
  return i < 0 ? args.length : i;
}

class Changes {
  readonly list: SchemaChange[] = [];
  constructor(readonly op: string) {}
  add(kind: ChangeKind, arg: string | null, old: string | null, neu: string | null, message: string): void {
    this.list.push({ op: this.op, severity: severityOf(kind), kind, arg, old, new: neu, message });
  }
}

/** One old argument against the new argument that took its place (same name, or a rename). */
function compareArg(o: Argument, n: Argument, out: Changes): void {
  const name = o.name;
  const ot = typeText(o.type, false);
  const nt = typeText(n.type, false);
  if (!sameAlias(o.type, n.type))
    out.add(
      'alias_changed',
      name,
      typeText(o.type),
      typeText(n.type),
      `argument '${name}': alias annotation changed from ${typeText(o.type)} to ${typeText(n.type)}`,
    );
  if (ot !== nt) {
    if (isSubtype(o.type, n.type))
      out.add('type_widened', name, ot, nt, `argument '${name}': type widened from ${ot} to ${nt}`);
    else out.add('type_changed', name, ot, nt, `argument '${name}': type changed from ${ot} to ${nt}`);
  }
  if (o.defaultText !== null && n.defaultText === null)
    out.add(
      'default_removed',
      name,
      o.defaultText,
      null,
      `argument '${name}': default ${o.defaultText} removed`,
    );
  else if (o.defaultText !== null && n.defaultText !== o.defaultText)
    out.add(
      'default_changed',
      name,
      o.defaultText,
      n.defaultText,
      `argument '${name}': default changed from ${o.defaultText} to ${n.defaultText}`,
    );
  else if (o.defaultText === null && n.defaultText !== null)
    out.add('default_added', name, null, n.defaultText, `argument '${name}': default ${n.defaultText} added`);
  if (!o.kwargOnly && n.kwargOnly)
    out.add(
      'kwarg_only_move',
      name,
      argText(o),
      argText(n),
      `argument '${name}': moved from positional to keyword-only`,
    );
  else if (o.kwargOnly && !n.kwargOnly)
    out.add(
      'kwarg_only_relaxed',
      name,
      argText(o),
      argText(n),
      `argument '${name}': keyword-only became positional`,
    );
}

/** One section (leading or out arguments) of an old and a new schema, aligned by position as PyTorch does. */
function compareSection(
  olds: readonly Argument[],
  news: readonly Argument[],
  offsetOld: number,
  offsetNew: number,
  out: Changes,
): void {
  const oldNames = new Set(olds.map((a) => a.name));
  const newIndex = new Map(news.map((a, i) => [a.name, i]));
  const matched = new Set<number>();
  olds.forEach((o, i) => {
    const j = newIndex.get(o.name);
    if (j !== undefined) {
      matched.add(j);
      if (j !== i)
        out.add(
          'moved_arg',
          o.name,
          argText(o),
          argText(news[j]),
          `argument '${o.name}': moved from position ${i + offsetOld} to ${j + offsetNew}`,
        );
      compareArg(o, news[j], out);
      return;
    }
    const n = news[i];
    if (n && !oldNames.has(n.name) && !matched.has(i)) {
      matched.add(i);
      out.add('renamed_arg', o.name, argText(o), argText(n), `argument '${o.name}' renamed to '${n.name}'`);
      compareArg(o, n, out);
      return;
    }
    out.add('removed_arg', o.name, argText(o), null, `argument '${o.name}' removed (was \`${argText(o)}\`)`);
  });
  news.forEach((n, j) => {
    if (matched.has(j)) return;
    if (n.defaultText === null)
      out.add(
        'added_arg_without_default',
        n.name,
        null,
        argText(n),
        `new argument '${n.name}' without a default: existing callers do not pass it`,
      );
    else
      out.add(
        'added_arg_with_default',
        n.name,
        null,
        argText(n),
        `new argument '${n.name}' with default ${n.defaultText}: a caller that passes it fails on the old runtime`,
      );
  });
}

function compareReturns(o: Schema, n: Schema, out: Changes): void {
  const ot = returnsText(o);
  const nt = returnsText(n);
  if (ot === nt) return;
  const same =
    o.returns.length === n.returns.length &&
    o.returns.every((r: Return, i) => {
      const m = n.returns[i];
      return r.name === m.name && sameAlias(r.type, m.type) && isSubtype(m.type, r.type);
    });
  if (same) out.add('return_narrowed', null, ot, nt, `returns narrowed from ${ot} to ${nt}`);
  else out.add('return_changed', null, ot, nt, `returns changed from ${ot} to ${nt}`);
}

/** All differences between two versions of one overload (empty when the schemas are equivalent). */
export function compareSchemas(old: Schema, neu: Schema, op = old.qualifiedName): SchemaChange[] {
  const out = new Changes(op);
  if (old.text === neu.text) return out.list;
  if (old.isVararg !== neu.isVararg)
    out.add(
      'vararg_changed',
      null,
      String(old.isVararg),
      String(neu.isVararg),
      `varargs ${neu.isVararg ? 'added' : 'removed'}`,
    );
  const oi = firstOutArg(old.args);
  const ni = firstOutArg(neu.args);
  compareSection(old.args.slice(0, oi), neu.args.slice(0, ni), 0, 0, out);
  compareSection(old.args.slice(oi), neu.args.slice(ni), oi, ni, out);
  compareReturns(old, neu, out);
  return out.list;
}

const bySeverity: Record<Severity, number> = { bc: 0, fc: 1, info: 2 };

/**
 * Compares an old schema map (the snapshot) with a new one (the live operator table): removed and added
 * overloads, and `compareSchemas` on each overload in both. Sorted by severity, then op.
 */
export function compareSchemaMaps(old: SchemaMap, neu: SchemaMap): SchemaChange[] {
  const changes: SchemaChange[] = [];
  for (const [op, text] of Object.entries(old)) {
    const now = Object.hasOwn(neu, op) ? neu[op] : undefined;
    if (now === undefined) {
      changes.push({
        op,
        severity: 'bc',
        kind: 'removed_overload',
        arg: null,
        old: text,
        new: null,
        message: `overload removed (was \`${text}\`)`,
      });
    } else changes.push(...compareSchemas(parseSchema(text), parseSchema(now), op));
  }
  for (const [op, text] of Object.entries(neu))
    if (!Object.hasOwn(old, op))
      changes.push({
        op,
        severity: 'info',
        kind: 'added_overload',
        arg: null,
        old: null,
        new: text,
        message: `new overload \`${text}\``,
      });
  return changes.sort(
    (a, b) => bySeverity[a.severity] - bySeverity[b.severity] || (a.op < b.op ? -1 : a.op > b.op ? 1 : 0),
  );
}
