/**
 * `opgate golden record|check` and the committed golden files. Recording needs PyTorch 1.13 (Debian's
 * python3-torch); tests and CI only replay the files, so the drift check against real torch runs where torch is
 * installed and is skipped, saying so, where it is not. Everything else runs everywhere.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { opDb } from '../../op_db/index.ts';
import { encodeGolden, GOLDEN_DIR, goldenPath, readGolden } from '../../src/oracles/index.ts';
import { opgate } from './run_helpers.ts';

const python = process.env.OPGATE_PYTHON ?? '/usr/bin/python3';
const hasTorch = spawnSync(python, ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;

describe('the committed goldens', () => {
  test('one file per OpInfo, and no file of no OpInfo', () => {
    const files = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.json.gz'));
    expect(files.sort()).toEqual(opDb.map((o) => `${o.name}.json.gz`).sort());
  });

  test('each file is in canonical form (re-encoding its content gives its bytes) and names PyTorch 1.13', () => {
    for (const info of opDb) {
      const g = readGolden(info.name)!;
      expect(g.op).toBe(info.name);
      expect(g.torch).toMatch(/^1\.13\./);
      expect(encodeGolden(g).equals(readFileSync(goldenPath(info.name))), info.name).toBe(true);
    }
  });
});

describe('opgate golden', () => {
  test('record without torch is a coded error naming the package (exit 2, no file written)', async () => {
    const before = readFileSync(goldenPath('add'));
    const r = await opgate(['golden', 'record', '--op', 'add'], {
      env: { OPGATE_PYTHON: '/nonexistent/python3' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/python3-torch.*\[E_TOOL_MISSING\]/);
    expect(readFileSync(goldenPath('add')).equals(before)).toBe(true);
  });

  test('an unknown --op is E_UNKNOWN_NAME', async () => {
    const r = await opgate(['golden', 'check', '--op', 'nosuchop']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nosuchop.*\[E_UNKNOWN_NAME\]/);
  });

  test.skipIf(!hasTorch)(
    'check re-records with real PyTorch: no drift for pow and where',
    async () => {
      const r = await opgate(['golden', 'check', '--op', 'pow,where', '--json']);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toMatchObject({ drifted: [], unchanged: 2 });
      expect(r.code).toBe(0);
    },
    120_000,
  );
});
