/**
 * The calls of the public-API fuzzer (fuzz_api.test.ts): for each operator overload, schema-shaped calls (most
 * well-formed, some with junk), and tensor() calls; the values come from fuzz_api_values.ts.
 */
import fc from 'fast-check';
import {
  anyValue,
  BIGINTS,
  type CallContext,
  DTYPE,
  hugeMeta,
  intLike,
  junkLeaf,
  raw,
  type Spec,
  STRINGS,
  scalarSpec,
  smallDims,
  tensorSpec,
  value,
} from './fuzz_api_values.ts';

export interface CallSpec {
  /** An operator-table name (`add`), a qualified overload (`add.Tensor`), or a method call on the first arg. */
  readonly name: string;
  /** The overload the call was generated from (the call itself may bind to another). */
  readonly overload: string;
  readonly via: 'callOp' | 'method' | 'function';
  readonly context: CallContext;
  readonly args: Spec[];
  readonly kwargs: [string, Spec][];
}

/** What the fuzzer needs of a schema argument's type (a subset of the runtime's ArgType). */
export interface ArgTypeLike {
  readonly base: string;
  readonly isList: boolean;
}

/** A value of one schema argument type; with `junk`, anything now and then. */
function forType(type: ArgTypeLike, junk: boolean): fc.Arbitrary<Spec> {
  const one = forBase(type.base);
  const typed = type.isList
    ? fc.oneof(
        {
          weight: 4,
          arbitrary: fc.array(one, { maxLength: 4 }).map((items): Spec => ({ t: 'list', items })),
        },
        { weight: 1, arbitrary: one },
      )
    : one;
  return junk ? fc.oneof({ weight: 3, arbitrary: typed }, { weight: 1, arbitrary: anyValue }) : typed;
}

function forBase(elem: string): fc.Arbitrary<Spec> {
  switch (elem) {
    case 'Tensor':
      return fc.oneof({ weight: 8, arbitrary: tensorSpec }, { weight: 1, arbitrary: hugeMeta });
    case 'int':
    case 'SymInt':
      return intLike;
    case 'float':
    case 'Scalar':
    case 'complex':
      return fc.oneof(
        intLike,
        scalarSpec,
        tensorSpec.filter((s) => s.t === 'tensor' && s.shape.length === 0),
      );
    case 'bool':
      return fc.oneof(fc.boolean().map(raw), junkLeaf);
    case 'ScalarType':
      return fc.oneof({ weight: 4, arbitrary: DTYPE.map(raw) }, { weight: 1, arbitrary: junkLeaf });
    default:
      return fc.oneof(fc.constantFrom(...STRINGS).map(raw), junkLeaf);
  }
}

export interface OpShape {
  readonly name: string;
  readonly qualified: string;
  readonly args: readonly { name: string; type: ArgTypeLike; kwargOnly: boolean; hasDefault: boolean }[];
}

/**
 * Calls of one overload. Most are well-formed (each argument of its schema type, though the values may be huge,
 * negative or non-finite), so calls get past binding into the kernels; the rest put junk in one argument, or
 * anywhere (junk values, omitted required arguments, extra positional / keyword arguments).
 */
export function callFor(op: OpShape): fc.Arbitrary<CallSpec> {
  const typed = op.args.map((a) => forType(a.type, false));
  const wild = op.args.map((a) => forType(a.type, true));
  const placement = (a: OpShape['args'][number], junk: boolean) =>
    // 0: positional (where allowed), 1: keyword, 2: omitted (only an optional one, unless junk is on).
    fc.constantFrom<0 | 1 | 2>(0, 0, 0, 1, ...(a.hasDefault || junk ? ([2, 2] as const) : []));
  const clean = fc.record({
    values: fc.tuple(...typed),
    how: fc.tuple(...op.args.map((a) => placement(a, false))),
    junkAt: fc.constant(-1),
    extraPos: fc.constant(null),
    extraKw: fc.constant(null),
  });
  const oneJunk = fc.record({
    values: fc.tuple(...typed),
    how: fc.tuple(...op.args.map((a) => placement(a, false))),
    junkAt: fc.nat({ max: Math.max(op.args.length - 1, 0) }),
    extraPos: fc.constant(null),
    extraKw: fc.constant(null),
  });
  const anything = fc.record({
    values: fc.tuple(...wild),
    how: fc.tuple(...op.args.map((a) => placement(a, true))),
    junkAt: fc.constant(-1),
    extraPos: fc.option(anyValue, { freq: 4 }),
    extraKw: fc.option(fc.tuple(fc.constantFrom('bogus', 'out', 'dtype', 'dim', 'alpha'), anyValue), {
      freq: 4,
    }),
  });
  return fc
    .record({
      parts: fc.oneof(
        { weight: 6, arbitrary: clean },
        { weight: 2, arbitrary: oneJunk },
        { weight: 2, arbitrary: anything },
      ),
      junk: anyValue,
      name: fc.constantFrom(op.name, op.name, op.qualified),
      via: fc.constantFrom('callOp' as const, 'callOp' as const, 'method' as const, 'function' as const),
      context: fc.record({
        device: fc.constantFrom('cpu' as const, 'cpu' as const, 'meta' as const),
        dtype: DTYPE,
        shape: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 3 }),
      }),
    })
    .map(({ parts, junk, name, via, context }) => {
      const args: Spec[] = [];
      const kwargs: [string, Spec][] = [];
      let positional = true;
      op.args.forEach((a, i) => {
        const how = parts.how[i];
        const v = i === parts.junkAt ? junk : parts.values[i];
        if (how === 2) {
          positional = false;
          return;
        }
        if (a.kwargOnly || how === 1 || !positional) {
          positional = positional && a.kwargOnly;
          kwargs.push([a.name, v]);
        } else args.push(v);
      });
      if (parts.extraPos) args.push(parts.extraPos);
      if (parts.extraKw) kwargs.push(parts.extraKw);
      return { name, overload: op.qualified, via, context, args, kwargs };
    });
}

const element = fc.oneof(
  { weight: 6, arbitrary: value.map(raw) },
  { weight: 1, arbitrary: fc.boolean().map(raw) },
  { weight: 1, arbitrary: fc.constantFrom(...BIGINTS).map(raw) },
  { weight: 1, arbitrary: scalarSpec },
);

/** Rectangular nested data of one element kind per leaf: `dims` sizes, each element from `leaf`. */
function nested(dims: number[], leaf: fc.Arbitrary<Spec>): fc.Arbitrary<Spec> {
  if (dims.length === 0) return leaf;
  const [d, ...rest] = dims;
  return fc
    .array(nested(rest, leaf), { minLength: d, maxLength: d })
    .map((items): Spec => ({ t: 'list', items }));
}

/** `tensor(data, options)` with rectangular, ragged and junk data and options. */
export const tensorCall: fc.Arbitrary<{ data: Spec; options: Spec }> = fc.record({
  data: fc.oneof(
    { weight: 4, arbitrary: smallDims.chain((dims) => nested(dims, element)) },
    {
      weight: 2,
      arbitrary: smallDims.chain((dims) =>
        nested(dims, fc.oneof({ weight: 8, arbitrary: element }, { weight: 1, arbitrary: anyValue })),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.array(element, { maxLength: 3 }), { maxLength: 3 })
        .map((rows): Spec => ({ t: 'list', items: rows.map((items): Spec => ({ t: 'list', items })) })),
    },
    { weight: 1, arbitrary: anyValue },
  ),
  options: fc.oneof(
    fc.constant(raw(undefined)),
    fc
      .record(
        { dtype: forBase('ScalarType'), device: forBase('Device'), requiresGrad: forBase('bool') },
        { requiredKeys: [] },
      )
      .map((o): Spec => ({ t: 'record', entries: Object.entries(o) })),
    junkLeaf,
  ),
});
