/**
 * The operator table: one entry per overload (`add.Tensor`, `add_.Tensor`, `add.out`), each with kernels per
 * dispatch key and an optional CompositeImplicit kernel used by any backend without a kernel of its own.
 */
import { UnknownOpError } from '../core/index.ts';
import type { BoundArgs } from './binding.ts';
import { type DispatchKey, type DispatchKeySet, KEY_NAMES } from './keys.ts';
import { parseSchema } from './schema.ts';
import type { Schema } from './schema_types.ts';
import { type ApiDecl, type OpSurface, surfaceOf } from './variants.ts';

export type Kernel = (ks: DispatchKeySet, args: BoundArgs, op: OperatorEntry) => unknown;

/** Facts about an op that the listing and harnesses read (not needed by dispatch itself). */
export interface OpTags {
  /** 'pointwise' | 'reduction' | 'view' | 'factory' | 'shape' | 'linalg' | 'index' | ... */
  readonly family: string;
  readonly isView?: boolean;
  /** The composite kernel is written in differentiable ops: autograd records the decomposition. */
  readonly decomposed?: boolean;
  /** A custom op's namespace (library.define): an op from outside the runtime's tree. */
  readonly library?: string;
  /**
   * A torch.nn.functional Python function with no aten schema (softsign): its schema is the Python signature,
   * and schema coverage lists it in place of aten's.
   */
  readonly pythonOnly?: boolean;
  /**
   * What the op computes (one_hot's output shape, its checks) depends on tensor values, so no meta kernel can run
   * it: a compile trace breaks the graph at it and runs it on real values. A predicate says it per call (a kernel
   * that reads values on the host for one dtype only).
   */
  readonly dataDependent?: boolean | ((args: Readonly<Record<string, unknown>>) => boolean);
}

export class OperatorEntry {
  readonly schema: Schema;
  readonly kernels = new Map<DispatchKey, Kernel>();
  composite: Kernel | null = null;
  tags: OpTags;
  /** A factory's TensorOptions (layout, pin_memory) among the arguments: binding checks them. */
  readonly tensorOptions: boolean;

  constructor(schema: Schema, tags: OpTags) {
    this.schema = schema;
    this.tags = tags;
    this.tensorOptions = schema.args.some((a) => a.name === 'pin_memory' || a.name === 'layout');
  }
  get name(): string {
    return this.schema.qualifiedName;
  }
  kernelKeys(): string[] {
    const keys = [...this.kernels.keys()].map((k) => KEY_NAMES[k]);
    if (this.composite) keys.push('CompositeImplicitAutograd');
    return keys;
  }
}

export class OperatorTable {
  private readonly byQualified = new Map<string, OperatorEntry>();
  private readonly byName = new Map<string, OperatorEntry[]>();
  private readonly aliases = new Map<string, string>();
  private readonly surfaceByName = new Map<string, OpSurface>();
  private readonly pythonByName = new Map<string, { function: string; method: string }>();

  /** Registers a schema (idempotent per qualified name) and returns its entry. */
  def(schemaText: string, tags: OpTags): OperatorEntry {
    return this.add(parseSchema(schemaText), tags);
  }

  /** Registers a parsed schema (a custom op's, whose name keeps its namespace: `myops::scale_shift`). */
  add(schema: Schema, tags: OpTags): OperatorEntry {
    const existing = this.byQualified.get(schema.qualifiedName);
    if (existing) return existing;
    const entry = new OperatorEntry(schema, tags);
    this.byQualified.set(schema.qualifiedName, entry);
    const list = this.byName.get(schema.name) ?? [];
    list.push(entry);
    this.byName.set(schema.name, list);
    return entry;
  }

  impl(qualifiedName: string, key: DispatchKey, kernel: Kernel): void {
    this.get(qualifiedName).kernels.set(key, kernel);
  }

  implComposite(qualifiedName: string, kernel: Kernel): void {
    this.get(qualifiedName).composite = kernel;
  }

  /** `nn.functional.relu` -> `relu`: PyTorch's Python names for aten ops. */
  alias(name: string, target: string): void {
    this.aliases.set(name, target);
  }

  /**
   * Python's `nn.functional.X(..., inplace=True)`: an `nn.functional` alias of an op with an in-place overload
   * takes a bool `inplace` keyword, which picks `X_` (true) or `X` (false) and is not passed on.
   */
  routeInplace(
    name: string,
    kwargs: Readonly<Record<string, unknown>>,
  ): [string, Readonly<Record<string, unknown>>] {
    if (typeof kwargs.inplace !== 'boolean' || !name.startsWith('nn.functional.')) return [name, kwargs];
    const target = this.aliases.get(name);
    if (target === undefined || !this.byName.has(`${target}_`)) return [name, kwargs];
    const { inplace, ...rest } = kwargs;
    return [inplace ? `${target}_` : target, rest];
  }

  /**
   * A name whose Python function and method are Python definitions over the aten op (torch.norm in
   * torch/functional.py, Tensor.norm in torch/_tensor.py): the API's `torch.<name>` and `t.<name>()` call these
   * ops instead; `callOp(name)` stays the aten op (PyTorch's `_VF.<name>`).
   */
  pythonDefinition(name: string, ops: { function: string; method: string }): void {
    for (const op of [ops.function, ops.method]) this.resolve(op);
    this.pythonByName.set(name, ops);
  }

  /** The op the API calls for `torch.<name>` (`function`) or `t.<name>()` (`method`). */
  apiTarget(name: string, form: 'function' | 'method'): string {
    return this.pythonByName.get(name)?.[form] ?? name;
  }

  /** Records which ops are functions / Tensor methods; every name must already have an overload. */
  declare(api: ApiDecl): void {
    for (const [name, entry] of Object.entries(api)) {
      if (!this.byName.has(name))
        throw new UnknownOpError('variants declared for an op without overloads', {
          got: name,
          expected: 'an op defined before its variants are declared',
        });
      this.surfaceByName.set(name, surfaceOf(entry));
    }
  }

  /** The declared surfaces (function / method), by op name. */
  surfaces(): [string, OpSurface][] {
    return [...this.surfaceByName.entries()];
  }

  has(qualifiedName: string): boolean {
    return this.byQualified.has(qualifiedName);
  }

  get(qualifiedName: string): OperatorEntry {
    const e = this.byQualified.get(qualifiedName);
    if (!e) throw new UnknownOpError('no such operator overload', { got: qualifiedName });
    return e;
  }

  /** All overloads callable by `name` (an op name, an alias, or a qualified `name.overload`). */
  resolve(name: string): readonly OperatorEntry[] {
    const target = this.aliases.get(name) ?? name;
    const list = this.byName.get(target);
    if (list) return list;
    const q = this.byQualified.get(target);
    if (q) return [q];
    throw new UnknownOpError('unknown operator', {
      got: name,
      expected: 'an op name from the operator table',
    });
  }

  entries(): OperatorEntry[] {
    return [...this.byQualified.values()];
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  aliasEntries(): [string, string][] {
    return [...this.aliases.entries()];
  }
}

/** The process-wide table (PyTorch's c10::Dispatcher singleton). */
export const operatorTable = new OperatorTable();
