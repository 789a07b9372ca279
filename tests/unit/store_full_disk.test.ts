/**
 * A real full disk: `opgate run` writing into a 512 KiB tmpfs (tests/unit/full_disk.sh, in a user and mount
 * namespace). SQLite's own SQLITE_FULL stops the run: E_DB_FULL in one line naming what is kept and how to go
 * on, exit 2, the run not executed to its end; what was committed is intact; after space is freed, `--resume`
 * completes it with every instance exactly once.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandMatrix } from '../../src/ci/matrix.ts';
import { integrityCheck } from '../../src/ci/store/fixtures.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';

const FILTERS = { device: ['meta'], oracle: ['metadata'], dtype: ['float32'] };
const ARGS = '--device meta --oracle metadata --dtype float32';

describe('a full disk under a run', () => {
  test('E_DB_FULL stops the run; the stored results are intact; --resume completes once there is space', () => {
    const out = mkdtempSync(join(tmpdir(), 'opgate-full-'));
    const r = spawnSync('unshare', ['-rm', 'bash', join(import.meta.dirname, 'full_disk.sh')], {
      env: { ...process.env, REPO: resolve(import.meta.dirname, '../..'), OUT: out, ARGS },
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.status, `unshare/mount must work here (as on CI): ${r.stderr}`).toBe(0);
    const codes = Object.fromEntries(
      readFileSync(join(out, 'codes'), 'utf8')
        .trim()
        .split(/\s+/)
        .map((kv) => kv.split('=')),
    );
    const err = readFileSync(join(out, 'first.err'), 'utf8').split('\n');
    const reported = err.filter((l) => l.startsWith('opgate-result '));
    const messages = err.filter((l) => l && !l.startsWith('opgate-result ') && !l.startsWith('Warning:'));
    const total = expandMatrix('pull', FILTERS).length;
    expect(codes.first).toBe('2');
    expect(messages, messages.join('\n')).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^opgate: .*r\.db: writing \(add results\): the disk .* is full \(SQLITE_FULL.*\); run 1 stopped with (\d+) of \d+ results stored; free space, then `opgate run --resume` \(same flags\) runs the rest \[E_DB_FULL\]$/,
    );
    const stored = Number(/stopped with (\d+) of/.exec(messages[0])![1]);
    expect(reported.length, 'the run stopped before its end').toBeLessThan(total);
    expect(integrityCheck(join(out, 'stopped.db'))).toBe('ok');
    const s = new ResultsStore(join(out, 'stopped.db'));
    expect(s.results(1)).toHaveLength(stored);
    s.close();
    // How long the run went on after its last accepted result (the first failed commit), for the README.
    const last = Number(reported.at(-1)!.split(' ')[1]);
    console.log(
      `full disk: ${stored} of ${total} results stored, ${reported.length} reported; exited ${Number(codes.exited) - last} ms after the last accepted result`,
    );
    expect(codes.resume, readFileSync(join(out, 'resume.err'), 'utf8')).toBe('0');
    const done = new ResultsStore(join(out, 'resumed.db'));
    const ids = done.results(1).map((x) => x.id);
    expect(done.runs().map((x) => x.status)).toEqual(['passed']);
    done.close();
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(
      expandMatrix('pull', FILTERS)
        .map((i) => i.id)
        .sort(),
    );
  }, 300_000);
});
