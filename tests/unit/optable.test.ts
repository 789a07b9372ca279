/**
 * The operator table as a whole: every registered op is reachable by its PyTorch name through callOp's
 * resolver, every entry has a kernel, schemas are well formed, and the public functions / methods are exactly
 * what the op definitions declare.
 */
import { describe, expect, it } from 'vitest';
import { formatSchema } from '../../src/runtime/dispatch/index.ts';
import * as T from '../../src/runtime/index.ts';

const { operatorTable } = T;
const listing = T.listOps();
const names = [...new Set(listing.map((o) => o.name))];
/** Op names without the in-place twin of a functional op (`add_` counts with `add`). */
const functionalNames = names.filter((n) => !(n.endsWith('_') && names.includes(n.slice(0, -1))));

describe('operator table listing', () => {
  it('listOps mirrors operatorTable.entries()', () => {
    const entries = operatorTable.entries();
    expect(listing).toHaveLength(entries.length);
    expect(listing.map((o) => (o.overload ? `${o.name}.${o.overload}` : o.name))).toEqual(
      entries.map((e) => e.name),
    );
    expect(new Set(entries.map((e) => e.name)).size).toBe(entries.length); // qualified names are unique
  });

  it('has at least 80 distinct op names (the issue floor; 144 today)', () => {
    // All op families (pointwise, views, factories, copies, reductions, shape, indexing, linalg, sorting,
    // *_scatter) are registered: 144 functional names (205 counting in-place twins) across 337 overloads. The
    // second floor guards against a family silently failing to register.
    expect(functionalNames.length).toBeGreaterThanOrEqual(80);
    expect(functionalNames.length).toBeGreaterThanOrEqual(144);
    expect(names.length).toBeGreaterThanOrEqual(functionalNames.length);
  });

  it('every family is represented', () => {
    const families = new Set(listing.map((o) => o.family));
    for (const f of ['pointwise', 'view', 'factory']) expect(families.has(f), f).toBe(true);
  });
});

describe('every op resolves by its PyTorch name', () => {
  it('by name: resolve(name) returns all of its overloads, in registration order', () => {
    for (const name of names) {
      const overloads = operatorTable.resolve(name);
      const want = operatorTable.entries().filter((e) => e.schema.name === name);
      expect(
        overloads.map((e) => e.name),
        name,
      ).toEqual(want.map((e) => e.name));
    }
  });

  it('by qualified name: resolve(name.overload) is that one entry', () => {
    for (const e of operatorTable.entries()) {
      if (!e.schema.overload) continue;
      expect(operatorTable.resolve(e.name), e.name).toEqual([e]);
      expect(operatorTable.get(e.name)).toBe(e);
    }
  });

  it('by alias: every alias resolves to its target', () => {
    const aliases = operatorTable.aliasEntries();
    expect(aliases.length).toBeGreaterThan(0);
    for (const [alias, target] of aliases)
      expect(operatorTable.resolve(alias), alias).toBe(operatorTable.resolve(target));
  });

  it('every entry has a kernel and a well-formed, round-tripping schema', () => {
    for (const e of operatorTable.entries()) {
      expect(e.kernelKeys().length, e.name).toBeGreaterThan(0);
      expect(formatSchema(e.schema), e.name).toBe(e.schema.text);
      if (e.schema.overload === 'out') expect(e.schema.mutates, e.name).toBe(true);
    }
  });

  it('in-place twins (`name_`) write to self', () => {
    for (const e of operatorTable.entries()) {
      if (!e.schema.name.endsWith('_') || e.schema.name.startsWith('_')) continue;
      expect(e.schema.args[0].type.alias?.isWrite, e.name).toBe(true);
    }
  });

  it('callOp reaches every op whose required arguments are tensors (errors, if any, are OpgateErrors)', () => {
    const unexpected: string[] = [];
    let called = 0;
    for (const e of operatorTable.entries()) {
      const required = e.schema.args.filter((a) => !a.hasDefault);
      if (required.some((a) => a.kwargOnly || a.type.base !== 'Tensor' || a.type.isList)) continue;
      const args = required.map(() => T.tensor([1.5, -2.5]));
      called++;
      try {
        T.callOp(e.name, args);
      } catch (err) {
        if (!(err instanceof T.OpgateError)) unexpected.push(`${e.name}: ${(err as Error).message}`);
      }
    }
    expect(called).toBeGreaterThan(50);
    expect(unexpected).toEqual([]);
  });
});

describe('the public API comes from the op definitions', () => {
  const api = T.apiNames();

  it('every declared name is an op in the table', () => {
    for (const n of [...api.functions, ...api.methods])
      expect(operatorTable.resolve(n).length, n).toBeGreaterThan(0);
    // The hand-kept lists this replaced had 136 functions; none went missing.
    expect(api.functions.length).toBeGreaterThanOrEqual(136);
  });

  it('functions and methods exist for them, list-returning ones included', () => {
    const proto = T.Tensor.prototype as unknown as Record<string, unknown>;
    for (const n of api.methods) expect(typeof proto[n], n).toBe('function');
    const fns = T.torch as unknown as Record<string, unknown>;
    for (const n of api.functions) expect(typeof fns[n], n).toBe('function');
    expect(Object.keys(fns).sort()).toEqual([...api.functions].sort());
    expect(api.lists).toEqual(expect.arrayContaining(['split', 'sort', 'max', 'min']));
    expect(Array.isArray(T.torch.split(T.torch.arange(4), 2))).toBe(true);
  });

  it('every in-place overload is a method; variants follow PyTorch', () => {
    // native_functions.yaml's in-place functions without a Tensor method (torch.dropout_, torch.rrelu_).
    const functionOnly = [
      'dropout_',
      'feature_dropout_',
      'feature_alpha_dropout_',
      'rrelu_',
      'embedding_renorm_',
    ];
    for (const n of names.filter((x) => x.endsWith('_') && !functionOnly.includes(x)))
      expect(api.methods, n).toContain(n);
    for (const n of functionOnly) expect(api.functions, n).toContain(n);
    for (const n of functionOnly) expect(api.methods, n).not.toContain(n);
    // native_functions.yaml: maximum has no maximum_, factories are functions, cat is no Tensor method.
    expect(api.methods).not.toContain('maximum_');
    expect(api.methods).not.toContain('zeros');
    expect(api.methods).not.toContain('cat');
    expect(api.functions).not.toContain('add_');
    expect(api.functions).toContain('var');
  });

  it('names are checked by tsc', () => {
    const x = T.tensor([1, 2]);
    // @ts-expect-error not an op
    expect(() => T.torch.no_such_op(x)).toThrow();
    // @ts-expect-error maximum has no in-place variant
    expect(() => x.maximum_(x)).toThrow();
    // @ts-expect-error factories are not Tensor methods
    expect(() => x.zeros(2)).toThrow();
  });
});
