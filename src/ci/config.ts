/**
 * opgate.config.ts: what a project outside this tree brings to the matrix. The file's module runs first (its
 * `library.define` / `impl` calls register its ops, its `registerDevice` its device), then its default export's
 * `opInfos` join op_db and its `devices` are checked to be registered, so
 * `opgate run --config <file>` expands the same templates and oracles over them and stores their results in
 * the same database. The CLI loads it for every command (`--config`, or OPGATE_CONFIG), and sets OPGATE_CONFIG
 * so that a run's vitest workers load the same file before they look up the plan's ops.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extendOpDb, type OpInfo } from '../../op_db/index.ts';
import { registeredDevice } from '../runtime/index.ts';
import { CiError } from './errors.ts';

export interface OpgateConfig {
  /** The project's OpInfos, built with op_db's builders (unaryOpInfo, opInfo, ...) for its own ops. */
  readonly opInfos?: readonly OpInfo[];
  /**
   * The device the config's modules register (registerDevice): the cross-backend oracle runs on it against cpu,
   * over everything cpu claims (`opgate run --device <name>`).
   */
  readonly devices?: readonly string[];
}

/** `export default defineConfig({...})`: typed, and nothing more. */
export const defineConfig = (c: OpgateConfig): OpgateConfig => c;

const loaded = new Set<string>();

/** Loads a config file once per process; returns its absolute path. */
export async function loadConfig(file: string): Promise<string> {
  const path = resolve(file);
  if (loaded.has(path)) return path;
  if (!existsSync(path)) throw new CiError('E_FILE_NOT_FOUND', `--config: no such file: ${file}`);
  const mod = (await import(pathToFileURL(path).href)) as { default?: OpgateConfig };
  const config = mod.default;
  if (
    config === null ||
    typeof config !== 'object' ||
    (config.opInfos && !Array.isArray(config.opInfos)) ||
    (config.devices && !Array.isArray(config.devices))
  )
    throw new CiError(
      'E_FILE_INVALID',
      `--config ${file}: expected a default export { opInfos?: OpInfo[], devices?: string[] } (defineConfig), got ${config === null ? 'null' : typeof config}`,
    );
  for (const device of config.devices ?? [])
    if (device !== registeredDevice())
      throw new CiError(
        'E_FILE_INVALID',
        `--config ${file}: devices names '${device}', which its modules did not register (registerDevice); registered: ${registeredDevice() ?? 'none'}`,
      );
  extendOpDb(config.opInfos ?? [], path);
  loaded.add(path);
  return path;
}

/** The config the command line named (OPGATE_CONFIG), in this process (a run's vitest worker). */
export async function loadConfigFromEnv(): Promise<void> {
  const file = process.env.OPGATE_CONFIG;
  if (file) await loadConfig(file);
}
