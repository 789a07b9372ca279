/**
 * Python-signature coverage (src/ci/coverage/python.ts): PyTorch 1.13's Python signatures of every spelling of
 * every op_db name, each bound by a sample or declared unsupported. The binder follows Python's argument parser;
 * no signature or keyword is uncovered (CI fails on one), and removing an op's samples uncovers its signatures and
 * fails the gate.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { opDb, pythonDeclarations } from '../../op_db/index.ts';
import {
  bindPython,
  type PySignature,
  type PythonCall,
  type PythonCoverage,
  parseParams,
  pythonCalls,
  pythonCoverage,
  pythonCoverageOk,
  pythonSignatures,
} from '../../src/ci/coverage/index.ts';
import { callOp, type Tensor } from '../../src/runtime/index.ts';

const keyOf = (name: string, sig: string) => `${name}${sig.replace(/ -> .*$/, '')}`;
function gaps(c: PythonCoverage): { signatures: string[]; keywords: string[] } {
  const signatures: string[] = [];
  const keywords: string[] = [];
  for (const s of c.spellings)
    for (const g of s.signatures) {
      if (g.status === 'uncovered') signatures.push(keyOf(s.name, g.signature));
      else
        for (const k of g.keywords)
          if (k.status === 'uncovered') keywords.push(`${keyOf(s.name, g.signature)} ${k.name}`);
    }
  return { signatures, keywords };
}

let calls: PythonCall[];
let real: PythonCoverage;
beforeAll(() => {
  calls = pythonCalls(opDb);
  real = pythonCoverage(opDb, { calls });
});

const sig = (name: string, text: string, source = '_VariableFunctions.pyi'): PySignature => ({
  name,
  source,
  text,
  params: parseParams(text),
});
const t = () => callOp('ones', [[2]]) as Tensor;

describe('the Python binder', () => {
  test('parses kinds, defaults and annotations as the stubs and inspect write them', () => {
    expect(parseParams("(input, p='fro', dim=None, *, out: Optional[Tensor]=None, **kw) -> Tensor")).toEqual([
      { name: 'input', kind: 'positional', hasDefault: false, type: null },
      { name: 'p', kind: 'positional', hasDefault: true, type: null },
      { name: 'dim', kind: 'positional', hasDefault: true, type: null },
      { name: 'out', kind: 'keyword', hasDefault: true, type: 'Optional[Tensor]' },
      { name: 'kw', kind: 'varkw', hasDefault: true, type: null },
    ]);
    expect(parseParams('(self, *size: _int, implicit: _bool=False)').map((p) => p.kind)).toEqual([
      'positional',
      'varargs',
      'keyword',
    ]);
  });

  test("binds as Python's argument parser does: places, names, required parameters, types", () => {
    const add = pythonSignatures().get('torch.add') ?? [];
    expect(bindPython(add[0], [t(), t()], { alpha: 2 })).toEqual(['input', 'other', 'alpha']);
    // The deprecated positional-alpha form is the second signature, reached only by (Tensor, Number, Tensor).
    expect(bindPython(add[0], [t(), 2, t()], {})).toBeNull();
    expect(bindPython(add[1], [t(), 2, t()], {})).toEqual(['self', 'alpha', 'other']);
    const eye = sig(
      'torch.eye',
      '(n: _int, *, dtype: Optional[_dtype]=None, requires_grad: Optional[_bool]=False)',
    );
    expect(bindPython(eye, [3], { requires_grad: true, dtype: 'float32' })).toEqual([
      'n',
      'requires_grad',
      'dtype',
    ]);
    expect(bindPython(eye, [3.5], {})).toBeNull(); // not an int
    expect(bindPython(eye, [3], { dtype: 'float99' })).toBeNull(); // not a dtype
    expect(bindPython(eye, [3], { pin: true })).toBeNull(); // no such keyword
    expect(bindPython(eye, [], {})).toBeNull(); // n is required
    expect(bindPython(eye, [3, 4], {})).toBeNull(); // dtype is keyword-only
    const view = sig('Tensor.view', '(self, *size: _int) -> Tensor', '__init__.pyi');
    expect(bindPython(view, [t(), 2, 3], {})).toEqual(['self', 'size']);
    expect(bindPython(view, [t(), [2, 3]], {})).toBeNull();
    // A Python function's annotations are not checked at run time.
    const py = sig(
      'torch.nn.functional.softmax',
      '(input: torch.Tensor, dim: Optional[int] = None, dtype: Optional[int] = None)',
      'torch/nn/functional.py',
    );
    expect(bindPython(py, [t(), 0], { dtype: 'float64' })).toEqual(['input', 'dim', 'dtype']);
  });
});

describe('Python-signature coverage of op_db', () => {
  test('the tallies add up and nothing is uncovered: every signature and keyword is sampled or declared', () => {
    for (const x of [real.signatures, real.keywords])
      expect(x.covered + x.unsupported + x.uncovered).toBe(x.total);
    expect(real.signatures.total).toBeGreaterThan(600);
    expect(gaps(real)).toEqual({ signatures: [], keywords: [] });
    expect(pythonCoverageOk(real)).toBe(true);
    expect(real.staleDeclarations).toEqual([]);
  });

  test("removing an op's samples uncovers its signatures and fails the gate", () => {
    const eyeCovered = (c: PythonCoverage) =>
      c.spellings.find((s) => s.name === 'torch.eye')?.signatures.filter((g) => g.status === 'covered')
        .length;
    expect(eyeCovered(real)).toBe(2);
    const without = pythonCoverage(opDb, { calls: calls.filter((c) => c.info !== 'eye') });
    expect(eyeCovered(without)).toBe(0);
    expect(without.signatures.uncovered).toBe(real.signatures.uncovered + 2);
    expect(pythonCoverageOk(without)).toBe(false);
  });

  test('a declaration is data: it turns a gap into an unsupported entry with its reason, and a stale one is reported', () => {
    // torch.eye's signatures uncovered (its samples left out), then declared.
    const declared = pythonCoverage(opDb, {
      calls: calls.filter((c) => c.info !== 'eye'),
      declarations: [
        ...pythonDeclarations,
        { spelling: 'torch.eye', reason: 'test: not taken' },
        { spelling: 'torch.no_such_op', reason: 'stale' },
      ],
    });
    const eye = declared.spellings.find((s) => s.name === 'torch.eye')?.signatures ?? [];
    expect(eye).toHaveLength(2);
    for (const g of eye) expect(g).toMatchObject({ status: 'unsupported', reason: 'test: not taken' });
    expect(gaps(declared)).toEqual({ signatures: [], keywords: [] });
    expect(declared.staleDeclarations).toEqual([expect.stringContaining('torch.no_such_op')]);
  });
});
