/**
 * Named mutants: the bugs issue 20 found the matrix blind to, kept as data so `opgate mutate --named` shows each
 * one killed by the matrix for as long as the samples and checks that close its gap stay in place. `find` must
 * occur exactly once in the file; `instances` are the matrix instances that must kill it (they run instead of
 * target determination's selection); `tests` lists test files that also run for it (end-to-end runs that read
 * what the file writes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CiError } from '../errors.ts';
import { type Mutant, mutantId } from './generate.ts';

export interface NamedMutant {
  readonly name: string;
  readonly operator: string;
  readonly file: string;
  readonly find: string;
  readonly replace: string;
  readonly tests?: readonly string[];
  /** The matrix instances that must kill it (run instead of target determination's selection). */
  readonly instances: readonly string[];
  /** The oracles (or 'unit') expected among its killers. */
  readonly killers: readonly string[];
}

export const NAMED_MUTANTS: readonly NamedMutant[] = [
  {
    name: 'softmax-no-max-subtraction',
    operator: 'remove-correction',
    file: 'src/runtime/ops/reductions/softmax.ts',
    find: '} - m); T[j] = e; s += e;',
    replace: '}); T[j] = e; s += e;',
    instances: ['test_reference_softmax_cpu_float64_contiguous_eager'],
    killers: ['reference'],
  },
];

/** The mutant a named entry makes of the file as it is now. */
export function resolveNamed(root: string, n: NamedMutant): Mutant {
  const lines = readFileSync(join(root, n.file), 'utf8').split('\n');
  const at = lines.flatMap((l, i) => (l.includes(n.find) ? [i] : []));
  if (at.length !== 1)
    throw new CiError(
      'E_INVALID_ARGUMENT',
      `named mutant '${n.name}': '${n.find}' occurs ${at.length} times in ${n.file}, expected exactly once`,
    );
  const original = lines[at[0]];
  const mutated = original.replace(n.find, n.replace);
  return {
    id: mutantId(n.file, n.operator, original, mutated, 0),
    file: n.file,
    line: at[0] + 1,
    operator: n.operator,
    original,
    mutated,
    name: n.name,
    tests: n.tests,
    instances: n.instances,
  };
}
