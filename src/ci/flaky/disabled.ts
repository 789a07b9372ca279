/**
 * The disabled list: SQLite table `disabled_tests` (key -> issue number, url, platforms), exported as
 * `disabled-tests.json` for runners and people. It mirrors the open DISABLED issues (`opgate flaky sync`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { MatrixInstance } from '../matrix.ts';
import type { ResultsSource } from '../store/connection.ts';
import { disabledTests, replaceDisabledTests } from '../store/flaky.ts';
import type { ResultsStore } from '../store/store.ts';
import { currentPlatform, disables } from './scope.ts';

export interface DisabledEntry {
  readonly key: string;
  readonly issueNumber: number;
  readonly issueUrl: string;
  readonly platforms: readonly string[];
}

/** What a quarantined instance's skip stores as its message (the dashboards parse the issue back out). */
export function disabledMessage(entry: Pick<DisabledEntry, 'issueNumber' | 'issueUrl'>): string {
  return `disabled by issue #${entry.issueNumber} ${entry.issueUrl}`;
}

export function listDisabled(store: ResultsSource): DisabledEntry[] {
  return disabledTests(store).map(({ updatedAt: _, ...e }) => e);
}

/** Replaces the whole list (issues are the source of truth); returns keys added and removed. */
export function replaceDisabled(
  store: ResultsStore,
  entries: readonly DisabledEntry[],
): { added: string[]; removed: string[] } {
  const before = new Set(listDisabled(store).map((e) => e.key));
  const after = new Set(entries.map((e) => e.key));
  const now = new Date().toISOString();
  replaceDisabledTests(
    store,
    entries.map((e) => ({ ...e, updatedAt: now })),
  );
  return {
    added: [...after].filter((k) => !before.has(k)),
    removed: [...before].filter((k) => !after.has(k)),
  };
}

/** `disabled-tests.json`: key -> { issue, url, platforms } (PyTorch's disabled-tests-condensed.json shape). */
export function exportDisabled(entries: readonly DisabledEntry[], path: string): void {
  const out = Object.fromEntries(
    entries.map((e) => [e.key, { issue: e.issueNumber, url: e.issueUrl, platforms: e.platforms }]),
  );
  writeFileSync(path, `${JSON.stringify(out, null, 2)}\n`);
}

/** The entry disabling `inst` on this platform, if any. */
export function disabledBy(
  entries: readonly DisabledEntry[],
  inst: MatrixInstance,
  platform = currentPlatform(),
): DisabledEntry | null {
  return entries.find((e) => disables(e.key, e.platforms, inst, platform)) ?? null;
}

/** Reads `disabled-tests.json` back into entries. */
export function readDisabled(path: string): DisabledEntry[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<
    string,
    { issue: number; url: string; platforms: string[] }
  >;
  return Object.entries(raw).map(([key, v]) => ({
    key,
    issueNumber: v.issue,
    issueUrl: v.url,
    platforms: v.platforms ?? [],
  }));
}
