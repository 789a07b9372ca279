/**
 * Argument parsers for the CLI's numeric options. They throw CiError (E_INVALID_ARGUMENT), which the CLI prints
 * as one line and exit 2, so `--retries abc` or `--shards 1.5` is rejected before anything runs or is written.
 */
import { CiError } from '../errors.ts';

/** A parser for an integer option with a lower bound: `--retries` (min 0), `--shards` (min 1). */
export const intOption =
  (flag: string, min: number) =>
  (v: string): number => {
    const n = /^[+-]?\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min)
      throw new CiError('E_INVALID_ARGUMENT', `${flag}: got '${v}', expected an integer >= ${min}`);
    return n;
  };

/** Commander's repeatable comma-separated list option (`--op add,mul --op sub`). */
export const listOption = (v: string, prev: string[] = []): string[] => [
  ...prev,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];
