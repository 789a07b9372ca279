/**
 * View 2, op coverage: op × device × dtype at one commit, each cell pass / fail / flaky / skip / xfail /
 * unsupported / not run, with the reason (and issue) of every skip, xfail and unsupported cell; and per device
 * a conformance score against the ruler: every (op, dtype) the cpu backend claims. A new backend is measured by
 * how much of that ruler passes on it, so an unsupported dtype counts against it as much as a failing one. A
 * registered device (registerDevice, seen in the results) is measured the same way, over everything cpu claims:
 * its skips whose reason is `unsupported on <device>: ...` (no kernel, or a dtype it does not compute) are its
 * unsupported cells. Scores are also given per op family and device.
 */
import { type OpInfo, opDb } from '../../op_db/index.ts';
import { coverageCounts, recentCommits, unsupportedPrefix } from '../../src/ci/index.ts';
import { DEVICE_TYPES, DTYPES } from '../../src/runtime/index.ts';
import { parseReason, type Reason } from '../shared.ts';
import type { ReadDb } from './db.ts';
import { CommitMemo } from './memo.ts';

export type CoverageStatus = 'pass' | 'fail' | 'flaky' | 'skip' | 'xfail' | 'unsupported' | 'none';

export interface CoverageCell {
  readonly s: CoverageStatus;
  /** Instances per result status (all oracles, layouts and modes of the cell); absent when none ran. */
  readonly n?: Record<string, number>;
  /** Skip and xfail reasons (an unsupported cell's reason is its op's `unsupported` entry). */
  readonly reasons?: readonly (Reason & { count: number })[];
}

export interface DeviceScore {
  readonly device: string;
  readonly ruler: number;
  readonly pass: number;
  readonly fail: number;
  readonly skip: number;
  readonly unsupported: number;
  readonly notRun: number;
  readonly score: number;
}

/** A device's score over one op family's part of the ruler. */
export interface FamilyScore extends DeviceScore {
  readonly family: string;
}

export interface CoverageData {
  readonly sha: string | null;
  readonly devices: readonly string[];
  readonly dtypes: readonly string[];
  readonly ops: readonly {
    name: string;
    /** Why the op does not run on a device at all (the OpInfo's `unsupported`). */
    unsupported: Readonly<Record<string, string>>;
    cells: Record<string, CoverageCell>;
  }[];
  readonly scores: readonly DeviceScore[];
  /** The scores per op family (op_db's `family`) and device, families in name order. */
  readonly families: readonly FamilyScore[];
  /** Conformance scores of the newest commits, oldest first (only in the latest commit's document). */
  readonly trend: readonly { sha: string; scores: Record<string, number> }[];
}

const cellKey = (device: string, dtype: string) => `${device} ${dtype}`;

function classify(claimed: boolean, n: Record<string, number>): CoverageStatus {
  if (!claimed) return 'unsupported';
  if ((n.fail ?? 0) + (n.error ?? 0) + (n.xpass ?? 0) > 0) return 'fail';
  if (n.flaky) return 'flaky';
  if (n.pass) return 'pass';
  if (n.unsupported) return 'unsupported';
  if (n.xfail) return 'xfail';
  if (n.skip) return 'skip';
  return 'none';
}

/** op_db by name, built per call: a project's config (--config) may have added OpInfos after this module loaded. */
const infoByName = () => new Map(opDb.map((i) => [i.name, i]));

/** What an OpInfo claims on a device: a registered device (not in op_db's tables) is measured over cpu's claims. */
const claimsOn = (info: OpInfo, device: string): readonly string[] =>
  (info.dtypes as Readonly<Record<string, readonly string[] | undefined>>)[device] ?? info.dtypes.cpu;

export function coverageData(db: ReadDb, sha?: string, trendLength = 0): CoverageData {
  const commit = sha ?? recentCommits(db, 1)[0]?.sha ?? null;
  const trend = recentCommits(db, trendLength).reverse();
  const points = POINTS.of(
    db,
    trend.map((c) => c.sha),
    (missing) => new Map(missing.map((s) => [s, trendPoint(db, s)])),
  );
  return {
    ...(commit === null
      ? coverageAt(db, null, false)
      : CELLS.one(db, commit, () => coverageAt(db, commit, false))),
    trend: trend.map((c) => ({ sha: c.sha, scores: points.get(c.sha) ?? {} })),
  };
}

/**
 * A commit's scores for the trend, remembered per commit stamp (memo.ts): a finished commit's point is computed
 * once per process (about 30 ms each: its run_cells rows). Bounded: the trend shows 20 commits.
 */
const POINTS = new CommitMemo<Record<string, number>>();
/** A commit's whole coverage (about 0.5 MB each), remembered the same way for the few commits people open. */
const CELLS = new CommitMemo<Omit<CoverageData, 'trend'>>(20);

function trendPoint(db: ReadDb, sha: string): Record<string, number> {
  return Object.fromEntries(coverageAt(db, sha, true).scores.map((x) => [x.device, x.score]));
}

/** One commit's coverage; `scoresOnly` (the trend's points): the scores, no cells. */
function coverageAt(db: ReadDb, commit: string | null, scoresOnly: boolean): Omit<CoverageData, 'trend'> {
  const rows = coverageCounts(db, commit);
  const INFO = infoByName();
  const seen = new Map<
    string,
    Map<string, { n: Record<string, number>; reasons: Map<string, Reason & { count: number }> }>
  >();
  for (const r of rows) {
    const byCell = seen.get(r.op) ?? new Map();
    seen.set(r.op, byCell);
    const k = cellKey(r.device, r.dtype);
    const c = byCell.get(k) ?? { n: {}, reasons: new Map() };
    byCell.set(k, c);
    // A registered device's unsupported instances are skips whose reason says so.
    const status =
      r.status === 'skip' && r.message?.startsWith(unsupportedPrefix(r.device)) ? 'unsupported' : r.status;
    c.n[status] = (c.n[status] ?? 0) + r.n;
    if (!scoresOnly && (r.status === 'skip' || r.status === 'xfail')) {
      const reason = parseReason(r.message);
      const key = `${r.status}\0${reason.reason}\0${reason.issue}`;
      const prev = c.reasons.get(key);
      c.reasons.set(key, {
        ...reason,
        reason: `${r.status}: ${reason.reason}`,
        count: (prev?.count ?? 0) + r.n,
      });
    }
  }
  const builtin: readonly string[] = DEVICE_TYPES;
  const devices = [
    ...DEVICE_TYPES,
    ...[...new Set(rows.map((r) => r.device))].filter((d) => !builtin.includes(d)).sort(),
  ];
  const dtypes = DTYPES.filter(
    (d) =>
      opDb.some((i) => devices.some((dev) => claimsOn(i, dev).includes(d))) ||
      rows.some((r) => r.dtype === d),
  );
  const names = [...new Set([...opDb.map((i) => i.name), ...seen.keys()])].sort();
  const empty = (): Tally => ({ ruler: 0, pass: 0, fail: 0, skip: 0, unsupported: 0, notRun: 0 });
  const scores = new Map(
    devices.map((d): [string, Tally & { device: string }] => [d, { device: d, ...empty() }]),
  );
  const families = new Map<string, Tally & { device: string; family: string }>();
  const familyTally = (device: string, family: string) => {
    const k = `${family}\0${device}`;
    let t = families.get(k);
    if (!t) {
      t = { device, family, ...empty() };
      families.set(k, t);
    }
    return t;
  };
  const ops = names.map((name) => {
    const info = INFO.get(name);
    const cells: Record<string, CoverageCell> = {};
    for (const device of devices) {
      for (const dtype of dtypes) {
        const c = seen.get(name)?.get(cellKey(device, dtype));
        // An op the op_db no longer has: what ran is all there is to go by.
        const claimed = info ? claimsOn(info, device).includes(dtype) : c !== undefined;
        const s = classify(claimed, c?.n ?? {});
        if (info?.dtypes.cpu.includes(dtype)) {
          tally(scores.get(device)!, s);
          tally(familyTally(device, info.family), s);
        }
        if (scoresOnly) continue;
        const reasons = [...(c?.reasons.values() ?? [])];
        if (s !== 'none' || c)
          cells[cellKey(device, dtype)] = { s, ...(c && { n: c.n }), ...(reasons.length && { reasons }) };
      }
    }
    return { name, unsupported: { ...info?.unsupported }, cells };
  });
  return {
    sha: commit,
    devices,
    dtypes,
    ops: scoresOnly ? [] : ops,
    scores: [...scores.values()].map((s) => ({ ...s, score: s.ruler ? s.pass / s.ruler : 0 })),
    families: scoresOnly
      ? []
      : [...families.values()]
          .sort(
            (a, b) =>
              a.family.localeCompare(b.family) || devices.indexOf(a.device) - devices.indexOf(b.device),
          )
          .map((f) => ({ ...f, score: f.ruler ? f.pass / f.ruler : 0 })),
  };
}

type Tally = { -readonly [K in Exclude<keyof DeviceScore, 'device' | 'score'>]: number };

/** The score's buckets: flaky counts against the device (it did not pass cleanly), skip and xfail together. */
const BUCKET: Record<CoverageStatus, keyof Tally> = {
  pass: 'pass',
  fail: 'fail',
  flaky: 'fail',
  skip: 'skip',
  xfail: 'skip',
  unsupported: 'unsupported',
  none: 'notRun',
};

function tally(t: Tally, status: CoverageStatus): void {
  t.ruler++;
  t[BUCKET[status]]++;
}
