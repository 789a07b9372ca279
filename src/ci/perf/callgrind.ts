/**
 * Instruction counts with valgrind's callgrind. The scenario program is bundled once (esbuild) so node runs plain
 * JS under valgrind, then run as `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=
 * Builtins_ReflectApply node --predictable ...` for K and for 2K iterations: the difference divided by K is the
 * count per iteration, with setup, warm-up and process start cancelled out. `--predictable` makes V8
 * single-threaded and deterministic, so repeated counts agree to a few instructions.
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { CiError } from '../errors.ts';

export const NODE_FLAGS = [
  '--predictable',
  '--hash-seed=1',
  '--random-seed=1',
  '--max-semi-space-size=16',
  '--expose-gc',
] as const;
export const VALGRIND_FLAGS = [
  '--tool=callgrind',
  '--collect-atstart=no',
  '--toggle-collect=Builtins_ReflectApply',
] as const;

/**
 * Bundles the program of a count (and the runtime it imports) into one ES module; returns its path. The program is
 * opgate's own (bench/callgrind_region.ts) or, given a project's scenarios file (its default export: PerfScenario[]),
 * region.ts running those.
 */
export function bundleRegion(root: string, scenariosFile?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'opgate-perf-'));
  const out = join(dir, 'region.mjs');
  let entry = join(root, 'bench/callgrind_region.ts');
  if (scenariosFile) {
    if (!existsSync(scenariosFile))
      throw new CiError('E_FILE_NOT_FOUND', `--scenarios: no such file: ${scenariosFile}`);
    entry = join(dir, 'entry.ts');
    const region = fileURLToPath(
      new URL(`region.${import.meta.url.endsWith('.js') ? 'js' : 'ts'}`, import.meta.url),
    );
    writeFileSync(
      entry,
      `import scenarios from ${JSON.stringify(resolve(scenariosFile))};\n` +
        `import { runRegion } from ${JSON.stringify(region)};\n` +
        'runRegion(scenarios);\n',
    );
  }
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    external: ['webgpu'],
    logLevel: 'error',
  });
  return out;
}

export function valgrindAvailable(): boolean {
  return spawnSync('valgrind', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Instructions collected inside the region for `iterations` iterations of `scenario` (and the profile). */
export function countOnce(
  bundle: string,
  scenario: string,
  iterations: number,
  env: NodeJS.ProcessEnv = process.env,
  outFile = join(mkdtempSync(join(tmpdir(), 'opgate-cg-')), 'callgrind.out'),
): Promise<number> {
  const p = spawn(
    'valgrind',
    [
      ...VALGRIND_FLAGS,
      `--callgrind-out-file=${outFile}`,
      process.execPath,
      ...NODE_FLAGS,
      bundle,
      scenario,
      String(iterations),
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  p.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  return new Promise((resolve, reject) => {
    p.on('error', reject);
    p.on('close', (status) => {
      const m = /Collected : (\d+)/.exec(stderr);
      if (status !== 0 || !m)
        reject(
          new CiError(
            'E_CALLGRIND_FAILED',
            `callgrind failed for ${scenario} x${iterations}: ${stderr.slice(-800)}`,
          ),
        );
      else resolve(Number(m[1]));
    });
  });
}

export interface Count {
  readonly scenario: string;
  readonly k: number;
  readonly countK: number;
  readonly count2K: number;
  /** (count(2K) - count(K)) / K. */
  readonly perIteration: number;
}

/**
 * The K and 2K runs go side by side: each is a single-threaded process (`--predictable`), and an instruction
 * count does not depend on what else the machine runs.
 */
export async function measure(
  bundle: string,
  scenario: string,
  k: number,
  env?: NodeJS.ProcessEnv,
): Promise<Count & { profile: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'opgate-cg-'));
  const [countK, count2K] = await Promise.all([
    countOnce(bundle, scenario, k, env, join(dir, 'k.out')),
    countOnce(bundle, scenario, 2 * k, env, join(dir, '2k.out')),
  ]);
  return { scenario, k, countK, count2K, perIteration: (count2K - countK) / k, profile: join(dir, '2k.out') };
}

/** Inclusive instruction counts per function of a callgrind profile (callgrind_annotate --inclusive=yes). */
export function inclusiveByFunction(profile: string, top = 60): Record<string, number> {
  const r = spawnSync('callgrind_annotate', ['--inclusive=yes', `--threshold=100`, profile], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const out: Record<string, number> = {};
  for (const line of (r.stdout ?? '').split('\n')) {
    const m = /^\s*([\d,]+)\s+\([^)]*\)\s+(.+?)\s*$/.exec(line) ?? /^\s*([\d,]+)\s+(\S.*?)\s*$/.exec(line);
    if (!m || /PROGRAM TOTALS|^Ir$/.test(m[2])) continue;
    const fn = m[2].replace(/^\S+:/, (s) => (s.includes('/') ? `${s.split('/').pop()}` : s));
    out[fn] = (out[fn] ?? 0) + Number(m[1].replace(/,/g, ''));
    if (Object.keys(out).length >= top) break;
  }
  return out;
}

export interface ScenarioInfo {
  readonly name: string;
  readonly k: number;
  readonly description: string;
}

/** The scenarios the bundled program knows (bench/scenarios.ts), asked of the program itself. */
export function listScenarios(bundle: string): ScenarioInfo[] {
  const r = spawnSync(process.execPath, [bundle, '--list'], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new CiError('E_CALLGRIND_FAILED', `listing the perf scenarios failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as ScenarioInfo[];
}
