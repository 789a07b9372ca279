/**
 * Python-signature coverage: users call PyTorch through its Python surface, which is wider than aten (factory
 * keywords such as requires_grad, Python wrappers with their own signatures such as torch.norm's string `p`). For
 * every spelling of every op_db name (`torch.<name>`, `Tensor.<name>`, `Tensor.<name>_`, aliases,
 * `torch.nn.functional.<name>`, ...), each of PyTorch 1.13's signatures is covered when some op_db sample's call
 * binds to it (the first signature that accepts a call takes it, as Python's argument parser does), or declared
 * unsupported with a reason (op_db/python_surface.ts); each keyword a caller may pass or leave out likewise.
 */
import type { OpInfo, SampleInput } from '../../../op_db/index.ts';
import { opDb, type PythonDeclaration, pythonDeclarations } from '../../../op_db/index.ts';
import { inplaceByKeyword, outArgNames } from '../../oracles/index.ts';
import { bindCall, operatorTable, Tensor } from '../../runtime/index.ts';
import { anyOut, DEFAULT_SEEDS, samplesOf } from './calls.ts';
import { bindPython, type PySignature, pythonSignatures } from './python_signatures.ts';

export type PythonStatus = 'covered' | 'unsupported' | 'uncovered';

export interface KeywordCoverage {
  readonly name: string;
  readonly status: PythonStatus;
  readonly reason?: string;
}

export interface SignatureCoverage {
  /** The spelling: `torch.add`, `Tensor.add_`. */
  readonly name: string;
  readonly signature: string;
  readonly status: PythonStatus;
  readonly reason?: string;
  /** How many sample calls bind to it. */
  readonly calls: number;
  /** The parameters a caller may pass or leave out (a default, or keyword-only). */
  readonly keywords: readonly KeywordCoverage[];
}

export interface PythonTally {
  readonly total: number;
  readonly covered: number;
  readonly unsupported: number;
  readonly uncovered: number;
}

export interface PythonCoverage {
  readonly signatures: PythonTally;
  readonly keywords: PythonTally;
  /** Per spelling, the OpInfos whose samples call it and its signatures. */
  readonly spellings: readonly {
    name: string;
    infos: readonly string[];
    signatures: readonly SignatureCoverage[];
  }[];
  /**
   * Declarations that declare nothing uncovered (a renamed keyword, a removed spelling, a signature a sample now
   * binds), judged when the whole of op_db is counted.
   */
  readonly staleDeclarations: readonly string[];
}

/** A call in Python terms: the spelling, positional and keyword arguments. */
export interface PythonCall {
  readonly info: string;
  readonly name: string;
  readonly args: readonly unknown[];
  readonly kwargs: Readonly<Record<string, unknown>>;
}

const NAMESPACED = /^(nn\.functional|special|linalg|fft)\./;

/** The Python spellings of an OpInfo that PyTorch 1.13 has, by form. */
export function spellingsOf(
  info: OpInfo,
  sigs: ReadonlyMap<string, readonly PySignature[]> = pythonSignatures(),
): { fn: string[]; method: string[]; inplace: string[] } {
  const base = NAMESPACED.test(info.name) ? info.name : info.name.split('.')[0];
  const names = [base, ...info.aliases];
  const has = (n: string) => sigs.has(n);
  const isMethod = (n: string) => !NAMESPACED.test(n);
  // A name whose torch.<name> is a Python definition (torch.norm): only the OpInfo that calls it spells it so; the
  // aten op's OpInfo calls `_VF.<name>`, no Python spelling.
  const callsFunction = (n: string) => {
    const target = operatorTable.apiTarget(n, 'function');
    return target === n || target === info.op;
  };
  return {
    fn: names
      .filter(callsFunction)
      .map((n) => `torch.${n}`)
      .filter(has),
    method: names
      .filter(isMethod)
      .map((n) => `Tensor.${n}`)
      .filter(has),
    inplace: names
      .filter((n) => isMethod(n) && !n.endsWith('_'))
      .map((n) => `Tensor.${n}_`)
      .filter(has),
  };
}

/** The Python calls one sample makes, as the oracles make them (calls.ts's forms, spelled the Python way). */
export function pythonCallsOfSample(
  info: OpInfo,
  s: SampleInput,
  spellings: ReturnType<typeof spellingsOf> = spellingsOf(info),
): PythonCall[] {
  const { fn, method, inplace } = spellings;
  const args = [s.input, ...s.args];
  const kwargs = { ...s.kwargs };
  const out: PythonCall[] = [];
  // The reference oracle's forms (oracles/reference.ts): the function, then each alias's function; the method
  // and each plain alias's method; the in-place method, an nn.functional op's inplace=True and each alias's `_`.
  const call = (name: string, kw: Readonly<Record<string, unknown>> = kwargs) =>
    out.push({ info: info.name, name, args, kwargs: kw });
  // A sample of the method's own form (SampleInput.method) is not a function call. An op PyTorch has only as a
  // Tensor method (uniform_) is called by its name, which is that method.
  const methodOnly = fn.length === 0 && !info.variants.method && method[0] ? [method[0]] : [];
  const functions = s.method ? [] : fn.length ? fn : methodOnly;
  for (const name of functions) call(name);
  const tensorInput = s.input instanceof Tensor;
  if (info.variants.method && tensorInput) for (const name of method) call(name);
  const inplaceApplies = info.variants.inplace && (info.inplaceApplies?.(s) ?? true);
  if (inplaceApplies && tensorInput && !s.broadcastsInput && !('out' in kwargs)) {
    for (const name of inplace) call(name);
    if (functions[0] && inplaceByKeyword(info)) call(functions[0], { ...kwargs, inplace: true });
  }
  if (functions[0] && info.variants.out && (info.outApplies?.(s) ?? true) && !('out' in kwargs)) {
    // Python's out= takes one tensor or a tuple (sort's values and indices); counted where the runtime binds it.
    const forms: [Record<string, unknown>, unknown][] = [[{ out: anyOut() }, anyOut()]];
    for (const n of [2, 3]) {
      const names = outArgNames(info.op, n);
      if (names) forms.push([Object.fromEntries(names.map((k) => [k, anyOut()])), names.map(anyOut)]);
    }
    for (const [aten, python] of forms)
      if (binds(info.op, args, { ...kwargs, ...aten })) call(functions[0], { ...kwargs, out: python });
    // Each plain alias's out= (one tensor), as the reference oracle calls it.
    if (binds(info.op, args, { ...kwargs, out: anyOut() }))
      for (const alias of info.aliases)
        if (!alias.includes('.') && fn.includes(`torch.${alias}`))
          call(`torch.${alias}`, { ...kwargs, out: anyOut() });
  }
  return out;
}

function binds(op: string, args: unknown[], kwargs: Record<string, unknown>): boolean {
  try {
    bindCall(op, args, kwargs);
    return true;
  } catch {
    return false;
  }
}

/** Every Python call of every sample of `infos`. */
export function pythonCalls(
  infos: readonly OpInfo[],
  seeds: readonly number[] = DEFAULT_SEEDS,
): PythonCall[] {
  // An OpInfo's spellings once, not per sample.
  return infos.flatMap((info) => {
    const spellings = spellingsOf(info);
    return samplesOf(info, seeds).flatMap((s) => pythonCallsOfSample(info, s, spellings));
  });
}

/** Keywords: parameters with a default, keyword-only ones, and `*args` / `**kwargs` aside. */
const keywordsOf = (sig: PySignature) =>
  sig.params
    .filter((p) => (p.kind === 'positional' && p.hasDefault) || p.kind === 'keyword')
    .map((p) => p.name);

/** The declaration of a signature (no keyword) or of one keyword of it; marked used. */
function declared(
  decls: readonly PythonDeclaration[],
  used: Set<PythonDeclaration>,
  name: string,
  sig: PySignature,
  keyword?: string,
): string | undefined {
  const d = decls.find(
    (x) =>
      x.keyword === keyword &&
      (x.spelling === undefined ||
        (typeof x.spelling === 'string' ? x.spelling === name : x.spelling.test(name))) &&
      (x.signature === undefined || x.signature.test(sig.text)),
  );
  if (d) used.add(d);
  return d?.reason;
}

export function pythonCoverage(
  infos: readonly OpInfo[],
  o: { calls?: readonly PythonCall[]; declarations?: readonly PythonDeclaration[] } = {},
): PythonCoverage {
  const sigs = pythonSignatures();
  const calls = o.calls ?? pythonCalls(infos);
  const decls = o.declarations ?? pythonDeclarations;
  const used = new Set<PythonDeclaration>();
  const infosOf = new Map<string, Set<string>>();
  for (const info of infos) {
    const s = spellingsOf(info, sigs);
    for (const n of [...s.fn, ...s.method, ...s.inplace])
      infosOf.set(n, (infosOf.get(n) ?? new Set()).add(info.name));
  }
  // Each call goes to the first signature of its spelling that accepts it; what it passes is recorded there.
  const hits = new Map<PySignature, { calls: number; given: Set<string> }>();
  for (const c of calls) {
    for (const sig of sigs.get(c.name) ?? []) {
      const given = bindPython(sig, c.args, c.kwargs);
      if (!given) continue;
      const h = hits.get(sig) ?? { calls: 0, given: new Set<string>() };
      h.calls++;
      for (const g of given) h.given.add(g);
      hits.set(sig, h);
      break;
    }
  }
  const spellings = [...infosOf].map(([name, mine]) => ({
    name,
    infos: [...mine],
    signatures: (sigs.get(name) ?? []).map((sig): SignatureCoverage => {
      const h = hits.get(sig);
      // A declaration counts where it declares something no sample covers (else it is stale).
      const reason = h ? undefined : declared(decls, used, name, sig);
      const status: PythonStatus = h ? 'covered' : reason !== undefined ? 'unsupported' : 'uncovered';
      const keywords = keywordsOf(sig).map((k): KeywordCoverage => {
        if (h?.given.has(k)) return { name: k, status: 'covered' };
        const why = reason ?? declared(decls, used, name, sig, k);
        return why !== undefined
          ? { name: k, status: 'unsupported', reason: why }
          : { name: k, status: 'uncovered' };
      });
      return {
        name,
        signature: sig.text,
        status,
        ...(status === 'unsupported'
          ? { reason }
          : status === 'uncovered'
            ? { reason: 'no sample binds to it' }
            : {}),
        calls: h?.calls ?? 0,
        keywords,
      };
    }),
  }));
  const all = spellings.flatMap((s) => s.signatures);
  const kws = all.flatMap((s) => s.keywords);
  const tally = (xs: readonly { status: PythonStatus }[]): PythonTally => ({
    total: xs.length,
    covered: xs.filter((x) => x.status === 'covered').length,
    unsupported: xs.filter((x) => x.status === 'unsupported').length,
    uncovered: xs.filter((x) => x.status === 'uncovered').length,
  });
  return {
    signatures: tally(all),
    keywords: tally(kws),
    spellings,
    // Judged on the whole of op_db only: a subset (`opgate coverage --op`) leaves most declarations unused.
    staleDeclarations: (infos.length === opDb.length ? decls : [])
      .filter((d) => !used.has(d))
      .map(
        (d) => `${JSON.stringify(d.spelling ?? '*')} ${d.signature ?? ''} ${d.keyword ?? ''}: ${d.reason}`,
      ),
  };
}
