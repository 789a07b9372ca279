/**
 * What a DISABLED issue disables. Its title is `DISABLED <key>` where the key is either
 *  - one instance id (`test_reference_add_cpu_float32_transposed_eager`), or
 *  - an op-level prefix `test_<oracle>_<op>_<device>`, covering that oracle × op × device across every dtype,
 *    layout and mode (PyTorch strips the dtype suffix; we strip dtype, layout and mode, at that boundary only).
 * A key must name something that exists in the full matrix: no other prefixes or wildcards, so an issue can
 * never disable more than it names. A `Platforms:` line in the body limits it to platforms (linux, mac,
 * win) and/or devices (cpu, webgpu, meta); no line means everywhere.
 */
import type { MatrixInstance } from '../matrix.ts';

export const TITLE_PREFIX = 'DISABLED ';

export type KeyKind = 'instance' | 'op';

/** Whether a title starts with `DISABLED ` in any letter case (a DISABLED issue, well-formed or not). */
export const hasDisabledPrefix = (title: string): boolean =>
  title.slice(0, TITLE_PREFIX.length).toUpperCase() === TITLE_PREFIX;

/**
 * The key of an issue title, or null when the title is not a DISABLED title. Matched case-insensitively (a person
 * may type `Disabled TEST_...`); instance ids are lower case, so the key is lower-cased to compare with them.
 */
export function keyOfTitle(title: string): string | null {
  if (!hasDisabledPrefix(title)) return null;
  const key = title.slice(TITLE_PREFIX.length).trim().split(/\s+/)[0].toLowerCase();
  return /^test_\w+$/.test(key) ? key : null;
}

export const opKeyOf = (i: Pick<MatrixInstance, 'oracle' | 'op' | 'device'>): string =>
  `test_${i.oracle}_${i.op.replace(/\./g, '_')}_${i.device}`;

/** Whether `key` names an instance or an op-level group of `instances` (null: names nothing real). */
export function kindOfKey(key: string, instances: readonly MatrixInstance[]): KeyKind | null {
  if (instances.some((i) => i.id === key)) return 'instance';
  if (instances.some((i) => opKeyOf(i) === key)) return 'op';
  return null;
}

const PLATFORM_NAMES: Record<string, string> = {
  linux: 'linux',
  darwin: 'mac',
  mac: 'mac',
  macos: 'mac',
  win: 'win',
  win32: 'win',
  windows: 'win',
};
const DEVICES = new Set(['cpu', 'webgpu', 'meta']);

/** The `Platforms:` line of an issue body: normalised platform and device names ([] = everywhere). */
export function platformsOfBody(body: string | null | undefined): string[] {
  const m = /^\s*platforms\s*:\s*(.*)$/im.exec(body ?? '');
  if (!m) return [];
  return [
    ...new Set(
      m[1]
        .split(/[,\s]+/)
        .map((p) => p.trim().toLowerCase())
        .filter(Boolean)
        .map((p) => PLATFORM_NAMES[p] ?? p),
    ),
  ].filter((p) => DEVICES.has(p) || Object.values(PLATFORM_NAMES).includes(p));
}

export const currentPlatform = (): string => PLATFORM_NAMES[process.platform] ?? process.platform;

/** Whether an entry (key + platforms) disables `inst` on `platform`. */
export function disables(
  key: string,
  platforms: readonly string[],
  inst: MatrixInstance,
  platform: string,
): boolean {
  if (key !== inst.id && key !== opKeyOf(inst)) return false;
  const os = platforms.filter((p) => !DEVICES.has(p));
  const devices = platforms.filter((p) => DEVICES.has(p));
  return (
    (os.length === 0 || os.includes(platform)) && (devices.length === 0 || devices.includes(inst.device))
  );
}
