/**
 * What a parsed PyTorch operator schema is: its arguments and returns with their types, alias annotations and
 * defaults (schema.ts parses the text, schema_format.ts prints it back).
 */
export type BaseType =
  | 'Tensor'
  | 'Scalar'
  | 'int'
  | 'SymInt'
  | 'float'
  | 'bool'
  | 'complex'
  | 'str'
  | 'ScalarType'
  | 'Device'
  | 'Layout'
  | 'MemoryFormat'
  | 'Generator'
  | 'Dimname'
  | 'Storage'
  | 'Stream'
  | 'QScheme'
  | 'Any'
  | 'AnyEnumType'
  // Containers: their parameter types are in `contained`.
  | 'Dict'
  | 'Tuple'
  | 'Future'
  | 'RRef'
  // A type variable (`t`, `tVal`) or a TorchScript class (`__torch__.torch.classes.x.Y`); see `typeName`.
  | 'TypeVar'
  | 'Class';

export interface AliasInfo {
  /** The first alias set before `->` (`a` in `Tensor(a!)`; `*` for a wildcard). */
  readonly set: string;
  readonly isWrite: boolean;
  /** All sets before `->` (`Tensor(b|a)` has ['b', 'a']). */
  readonly sets: readonly string[];
  /** Sets after `->` (`Tensor(a -> *)` has ['*']); empty when there is no arrow. */
  readonly afterSets: readonly string[];
}

export interface ArgType {
  /** For a list, the element's base type. */
  readonly base: BaseType;
  readonly isList: boolean;
  /** `int[2]`: a fixed-size list that also accepts one int (broadcast). */
  readonly listSize: number | null;
  /** The whole value may be None (`int[]?`, `Tensor?`). */
  readonly optional: boolean;
  /** For a list: its elements may be None (`Tensor?[]`). */
  readonly elementOptional: boolean;
  /** The alias annotation of the value (for a list, the list's own annotation, else its elements'). */
  readonly alias: AliasInfo | null;
  /** For a list: the alias annotation of its elements (`Tensor(a)[]`). */
  readonly elementAlias: AliasInfo | null;
  /** Parameter types of Dict / Tuple / Future / RRef. */
  readonly contained: readonly ArgType[];
  /** The spelling of a TypeVar or Class (`t`, `__torch__.torch.classes.rnn.CellParamsBase`). */
  readonly typeName: string | null;
}

export interface Argument {
  readonly name: string;
  readonly type: ArgType;
  readonly kwargOnly: boolean;
  readonly hasDefault: boolean;
  /** Parsed default: number, boolean, string, null (None) or a list of those. */
  readonly defaultValue: unknown;
  /** The default exactly as written in the schema (for round trips); null without a default. */
  readonly defaultText: string | null;
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
  /** The schema without its `aten::` namespace. */
  readonly text: string;
  /** True for `name_` ops and `.out` overloads: some argument is written (`!`). */
  readonly mutates: boolean;
  /** `f(str self, ...)`: more positional arguments of any type may follow (TorchScript varargs). */
  readonly isVararg: boolean;
  /** The return list was a parenthesised tuple (`-> (Tensor, Tensor)` or `-> ()`), not a single type. */
  readonly returnsTuple: boolean;
}
