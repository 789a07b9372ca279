/**
 * Strict selection: every filter name must exist (a typo is an error with the nearest valid names, never an
 * empty run that passes), the pattern must compile, and a selection of 0 instances is an error unless the
 * caller allows it. `opgate run`, `list` and `td` select through here.
 */
import { LAYOUTS, MODES, ORACLES, opDb } from '../../op_db/index.ts';
import { DTYPES, deviceTypes } from '../runtime/index.ts';
import { selectedTargets } from '../targets/index.ts';
import { CiError, nearestNames } from './errors.ts';
import { expandMatrix, type Filters, type MatrixInstance, type Tier } from './matrix.ts';

type NamedFilter = 'op' | 'device' | 'dtype' | 'oracle' | 'layout' | 'mode';

const VALID: Record<NamedFilter, () => readonly string[]> = {
  op: () => [...new Set(opDb.flatMap((i) => [i.name, i.op]))],
  // A registered device (a --config's registerDevice) is a device name too, and so is a selected target (--target).
  device: () => [...deviceTypes(), ...selectedTargets()],
  dtype: () => DTYPES,
  oracle: () => ORACLES,
  layout: () => LAYOUTS,
  mode: () => MODES,
};

/** Throws E_UNKNOWN_NAME for a name no instance can have, E_INVALID_ARGUMENT for a pattern that does not compile. */
export function validateFilters(f: Filters): void {
  for (const key of Object.keys(VALID) as NamedFilter[]) {
    const given = f[key];
    if (!given) continue;
    const valid = VALID[key]();
    for (const name of given) {
      if (valid.includes(name)) continue;
      const hint =
        valid.length <= 12
          ? `expected one of ${valid.join(', ')}`
          : `did you mean ${nearestNames(name, valid)
              .map((n) => `'${n}'`)
              .join(', ')}? (\`opgate ops\` lists them all)`;
      throw new CiError('E_UNKNOWN_NAME', `--${key}: unknown ${key} '${name}'; ${hint}`);
    }
  }
  const m = f.pattern === undefined ? null : /^\/(.*)\/$/.exec(f.pattern);
  if (m) {
    try {
      new RegExp(m[1]);
    } catch (e) {
      throw new CiError(
        'E_INVALID_ARGUMENT',
        `--pattern: got ${f.pattern}, expected a valid /regex/ (${(e as Error).message})`,
      );
    }
  }
}

/** A description of the filters for messages: `--op add --device meta`. */
export function describeFilters(f: Filters, tier: Tier): string {
  const parts = [`--tier ${tier}`];
  for (const key of Object.keys(VALID) as NamedFilter[])
    if (f[key]?.length) parts.push(`--${key} ${f[key]?.join(',')}`);
  if (f.pattern !== undefined) parts.push(`--pattern ${f.pattern}`);
  return parts.join(' ');
}

/** The instances of a validated selection; 0 of them is E_EMPTY_SELECTION unless `allowEmpty`. */
export function selectInstances(
  tier: Tier,
  filters: Filters,
  opts: { allowEmpty?: boolean; what?: string } = {},
): MatrixInstance[] {
  validateFilters(filters);
  const instances = expandMatrix(tier, filters);
  if (instances.length === 0 && !opts.allowEmpty) throw emptySelection(tier, filters, opts.what);
  return instances;
}

export function emptySelection(tier: Tier, filters: Filters, what?: string): CiError {
  return new CiError(
    'E_EMPTY_SELECTION',
    `${what ?? 'the selection'} (${describeFilters(filters, tier)}) has 0 instances; pass --allow-empty if that is intended`,
  );
}
