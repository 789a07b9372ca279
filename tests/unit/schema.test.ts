/**
 * The schema parser: every aten schema of PyTorch 1.13 (op_db/torch_aten_schemas.txt, copied from
 * torch._C._jit_get_all_schemas()) parses and round-trips through formatSchema; the parts the dispatcher and
 * binder rely on (types, alias annotations, defaults, kwarg-only markers, returns) are checked one by one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatSchema, formatType, parseSchema, parseType } from '../../src/runtime/dispatch/index.ts';

const LINES = readFileSync(new URL('../../op_db/torch_aten_schemas.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'));

describe('all PyTorch 1.13 aten schemas', () => {
  it('the fixture holds 3605 schemas', () => {
    expect(LINES.length).toBe(3605);
  });

  it('every one parses (3605 / 3605)', () => {
    const failures: string[] = [];
    for (const line of LINES) {
      try {
        parseSchema(line);
      } catch (e) {
        failures.push(`${line}\n    ${(e as Error).message}`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(LINES.length - failures.length).toBe(3605);
  });

  it('every one round-trips: formatSchema(parseSchema(s)) === s without its namespace', () => {
    const mismatches: string[] = [];
    for (const line of LINES) {
      const s = parseSchema(line);
      const text = line.replace(/^aten::/, '');
      const formatted = formatSchema(s);
      if (formatted !== text || s.text !== text) mismatches.push(`${text}\n != ${formatted}`);
      else if (JSON.stringify(parseSchema(formatted)) !== JSON.stringify(s))
        mismatches.push(`reparse differs: ${text}`);
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
  });

  it('qualified names are unique', () => {
    const names = LINES.map((l) => parseSchema(l).qualifiedName);
    expect(new Set(names).size).toBe(names.length);
  });

  it('mutating schemas are exactly those with a written (!) alias', () => {
    for (const line of LINES) {
      const s = parseSchema(line);
      expect(s.mutates, line).toBe(/\([a-z*|]+!/.test(line.slice(0, line.lastIndexOf('->'))));
    }
  });
});

describe('parseSchema', () => {
  it('name, overload, args, kwarg-only marker, defaults, returns', () => {
    const s = parseSchema('aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    expect(s.name).toBe('add');
    expect(s.overload).toBe('Tensor');
    expect(s.qualifiedName).toBe('add.Tensor');
    expect(s.text).toBe('add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    expect(s.args.map((a) => [a.name, a.type.base, a.kwargOnly, a.hasDefault, a.defaultValue])).toEqual([
      ['self', 'Tensor', false, false, undefined],
      ['other', 'Tensor', false, false, undefined],
      ['alpha', 'Scalar', true, true, 1],
    ]);
    expect(s.returns).toHaveLength(1);
    expect(s.returns[0].name).toBeNull();
    expect(s.mutates).toBe(false);
    expect(parseSchema('neg(Tensor self) -> Tensor').qualifiedName).toBe('neg');
  });

  it('out= and in-place schemas mutate', () => {
    const out = parseSchema(
      'aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)',
    );
    expect(out.mutates).toBe(true);
    expect(out.args[3].type.alias).toEqual({ set: 'a', isWrite: true, sets: ['a'], afterSets: [] });
    expect(out.returns[0].type.alias?.isWrite).toBe(true);
    expect(
      parseSchema('aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)')
        .mutates,
    ).toBe(true);
    expect(
      parseSchema('aten::_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()')
        .mutates,
    ).toBe(true);
  });

  it('alias annotations: Tensor(a -> *), Tensor(a)[], Tensor(b|a), t(*), Tensor[](a!)', () => {
    const chunk = parseSchema('aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]');
    expect(chunk.args[0].type.alias).toEqual({ set: 'a', isWrite: false, sets: ['a'], afterSets: ['*'] });
    const ret = chunk.returns[0].type;
    expect([ret.base, ret.isList, ret.elementAlias?.set, ret.alias?.set]).toEqual(['Tensor', true, 'a', 'a']);
    expect(parseSchema('aten::cpu(Tensor(a) self) -> Tensor(b|a)').returns[0].type.alias?.sets).toEqual([
      'b',
      'a',
    ]);
    const getitem = parseSchema('aten::__getitem__.t(t[](a) list, int idx) -> t(*)');
    expect(getitem.args[0].type).toMatchObject({
      base: 'TypeVar',
      typeName: 't',
      isList: true,
      alias: { set: 'a' },
      elementAlias: null,
    });
    expect(getitem.returns[0].type).toMatchObject({
      base: 'TypeVar',
      typeName: 't',
      alias: { set: '*', sets: ['*'] },
    });
    const app = parseSchema('aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)');
    expect(app.mutates).toBe(true);
    expect(app.args[1].type.alias?.afterSets).toEqual(['*']);
  });

  it('list types: int[], int[2], bool[3], float[], Tensor?[], Tensor?[]?, SymInt[1]?', () => {
    expect(parseType('int[]')).toMatchObject({ base: 'int', isList: true, listSize: null, optional: false });
    expect(parseType('int[2]')).toMatchObject({ base: 'int', isList: true, listSize: 2 });
    expect(parseType('bool[3]')).toMatchObject({ base: 'bool', isList: true, listSize: 3 });
    expect(parseType('float[]')).toMatchObject({ base: 'float', isList: true });
    expect(parseType('Tensor?[]')).toMatchObject({
      base: 'Tensor',
      isList: true,
      optional: false,
      elementOptional: true,
    });
    expect(parseType('Tensor?[]?')).toMatchObject({ isList: true, optional: true, elementOptional: true });
    expect(parseType('SymInt[1]?')).toMatchObject({
      base: 'SymInt',
      listSize: 1,
      optional: true,
      elementOptional: false,
    });
    expect(parseType('Tensor(a!)[]')).toMatchObject({
      isList: true,
      alias: { set: 'a', isWrite: true },
      elementAlias: { set: 'a' },
    });
    expect(parseType('str[1]')).toMatchObject({ base: 'str', listSize: 1 });
  });

  it('scalar-like and other types: complex, Dimname, Storage, Stream, QScheme, Any, AnyEnumType', () => {
    for (const t of [
      'complex',
      'Dimname',
      'Storage',
      'Stream',
      'QScheme',
      'Any',
      'AnyEnumType',
      'ScalarType?',
      'Layout?',
      'Device?',
      'MemoryFormat',
      'Generator?',
    ]) {
      expect(parseType(t).base).toBe(t.replace('?', ''));
      expect(formatType(parseType(t))).toBe(t);
    }
    expect(parseSchema('aten::Complex.Scalar(Scalar a) -> complex').returns[0].type.base).toBe('complex');
  });

  it('containers and type variables: Dict(str, t), Future(t), RRef(t), (int, tVal)[], classes', () => {
    expect(parseType('Dict(str, t)')).toMatchObject({
      base: 'Dict',
      contained: [{ base: 'str' }, { base: 'TypeVar', typeName: 't' }],
    });
    expect(parseType('Dict(Tensor, t)(a!)')).toMatchObject({
      base: 'Dict',
      alias: { set: 'a', isWrite: true },
    });
    expect(parseType('Future(t)').contained[0].typeName).toBe('t');
    expect(parseType('RRef(t)').base).toBe('RRef');
    expect(parseType('(int, tVal)[]')).toMatchObject({
      base: 'Tuple',
      isList: true,
      contained: [{ base: 'int' }, { typeName: 'tVal' }],
    });
    expect(parseType('__torch__.torch.classes.rnn.CellParamsBase[]')).toMatchObject({
      base: 'Class',
      typeName: '__torch__.torch.classes.rnn.CellParamsBase',
      isList: true,
    });
    const items = parseSchema('aten::items.str(Dict(str, t) self) -> ((str, t)[])');
    expect(items.returnsTuple).toBe(true);
    expect(items.returns[0].type).toMatchObject({ base: 'Tuple', isList: true });
  });

  it('defaults: lists, strings with escapes, floats, negative numbers, None, enums, inf', () => {
    const arg = (schema: string, i: number) => parseSchema(schema).args[i];
    expect(
      arg('aten::fft_fft2(Tensor self, int[1]? s=None, int[1] dim=[-2, -1], str? norm=None) -> Tensor', 2)
        .defaultValue,
    ).toEqual([-2, -1]);
    expect(arg('f(Tensor self, int[] dims=[0, 1]) -> Tensor', 1).defaultValue).toEqual([0, 1]);
    expect(arg('f(Tensor self, int[] dims=[]) -> Tensor', 1).defaultValue).toEqual([]);
    expect(arg('f(Tensor self, str reduction="none") -> Tensor', 1).defaultValue).toBe('none');
    expect(arg('aten::lstrip(str self, str chars=" \\n\\t\\f\\v") -> str', 1).defaultValue).toBe(' \n\t\f\v');
    expect(
      arg('aten::_test_string_default(Tensor dummy, str a="\\"\\\'\\\\", str b="\\"\\\'\\\\") -> Tensor', 1)
        .defaultValue,
    ).toBe('"\'\\');
    expect(arg('aten::rsplit(str self, str separator=" ", int max=-1) -> str[]', 1).defaultValue).toBe(' ');
    expect(arg('f(Tensor self, float eps=1.0000000000000001e-05) -> Tensor', 1).defaultValue).toBe(1e-5);
    expect(arg('f(Tensor self, float p=2.) -> Tensor', 1).defaultValue).toBe(2);
    expect(arg('f(Tensor self, float lo=-inf, float hi=inf, float n=nan) -> Tensor', 1).defaultValue).toBe(
      Number.NEGATIVE_INFINITY,
    );
    expect(arg('f(Tensor self, float lo=-inf, float hi=inf, float n=nan) -> Tensor', 2).defaultValue).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(
      arg('f(Tensor self, float lo=-inf, float hi=inf, float n=nan) -> Tensor', 3).defaultValue,
    ).toBeNaN();
    expect(arg('f(Tensor self, int ignore_index=-100) -> Tensor', 1).defaultValue).toBe(-100);
    expect(
      arg('f(Tensor self, *, MemoryFormat memory_format=contiguous_format) -> Tensor', 1).defaultValue,
    ).toBe('contiguous_format');
    expect(arg('f(Tensor self, bool keepdim=False, ScalarType? dtype=None) -> Tensor', 1).defaultValue).toBe(
      false,
    );
    expect(
      arg('f(Tensor self, bool keepdim=False, ScalarType? dtype=None) -> Tensor', 2).defaultValue,
    ).toBeNull();
    expect(arg('f(Tensor self, str sep=",", int n=1) -> Tensor', 1).defaultValue).toBe(',');
    expect(arg('f(Tensor self, str sep=",", int n=1) -> Tensor', 2).defaultValue).toBe(1);
  });

  it('returns: named tuples, empty tuples, varargs', () => {
    const mx = parseSchema(
      'aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)',
    );
    expect(mx.returns.map((r) => r.name)).toEqual(['values', 'indices']);
    expect(mx.returnsTuple).toBe(true);
    const none = parseSchema('aten::record_stream(Tensor(a!) self, Stream s) -> ()');
    expect(none.returns).toEqual([]);
    expect(none.returnsTuple).toBe(true);
    const fmt = parseSchema('aten::format(str self, ...) -> str');
    expect(fmt.isVararg).toBe(true);
    expect(fmt.args.map((a) => a.name)).toEqual(['self']);
    expect(parseSchema('aten::has_torch_function(...) -> bool').args).toEqual([]);
  });

  it('round-trips hand-written schemas', () => {
    for (const s of [
      'view(Tensor(a) self, SymInt[] size) -> Tensor(a)',
      'split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]',
      'index.Tensor(Tensor self, Tensor?[] indices) -> Tensor',
      'f(Tensor?[]? x, int[2] k=1, bool[3] m=[True, False, True], *, str? mode="a,b") -> (Tensor a, Tensor(b!) b)',
    ]) {
      expect(formatSchema(parseSchema(s))).toBe(s);
    }
  });

  it('rejects malformed schemas with E_SCHEMA_PARSE', () => {
    for (const bad of [
      'foo(bar',
      'foo(Tensor self)',
      'foo(Tensor) -> Tensor',
      'foo(Tensor self) -> ',
      'foo(Tensor self=) -> Tensor',
      'foo(int[[]] x) -> Tensor',
      'foo(Tensor(a self) -> Tensor',
      'foo(str s="abc) -> Tensor',
      'foo(Tensor self) -> Tensor extra junk',
    ]) {
      expect(() => parseSchema(bad), bad).toThrow(expect.objectContaining({ code: 'E_SCHEMA_PARSE' }));
    }
  });
});
