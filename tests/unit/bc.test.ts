/**
 * The schema BC/FC gate (src/ci/bc, `opgate bc check|update`): each BC-breaking change kind fails, FC-breaking
 * ones warn, the allowlist suppresses until its date, and the committed snapshot matches the live table.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, test, vi } from 'vitest';
import {
  type AllowEntry,
  type BcReport,
  checkBc,
  DEFAULT_ALLOWLIST,
  DEFAULT_SNAPSHOT,
  formatBcReport,
  liveSchemas,
  parseAllowlist,
  parseSnapshot,
  readAllowlist,
  readSnapshot,
  schemaMapOf,
  serializeSnapshot,
} from '../../src/ci/bc/index.ts';
import { registerBcCommands } from '../../src/ci/cli/bc.ts';

const TODAY = '2025-06-15';
const ADD = 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor';

/** Checks one overload's old schema against its new one. */
function check(old: string | string[], neu: string | string[], allow: AllowEntry[] = [], today = TODAY) {
  const list = (x: string | string[]) => schemaMapOf(typeof x === 'string' ? [x] : x);
  return checkBc(list(old), list(neu), allow, today);
}

const kinds = (r: BcReport) => ({
  bc: r.breaks.map((c) => c.kind),
  fc: r.warnings.map((c) => c.kind),
});

function expectBreak(old: string | string[], neu: string | string[], kind: string) {
  const r = check(old, neu);
  expect(r.ok).toBe(false);
  expect(kinds(r).bc).toContain(kind);
  expect(formatBcReport(r)).toMatch(new RegExp(`error {3}BC \\S+ \\[${kind}\\]`));
  return r;
}

describe('BC breaks fail', () => {
  test('removed overload', () => {
    const r = expectBreak(
      [ADD, 'neg(Tensor self) -> Tensor'],
      ['neg(Tensor self) -> Tensor'],
      'removed_overload',
    );
    expect(r.breaks[0]).toMatchObject({ op: 'add.Tensor', old: ADD, new: null });
  });

  test('removed argument', () => {
    const r = expectBreak(ADD, 'add.Tensor(Tensor self, Tensor other) -> Tensor', 'removed_arg');
    expect(r.breaks).toEqual([
      expect.objectContaining({ arg: 'alpha', old: '*, Scalar alpha=1', new: null }),
    ]);
  });

  test('renamed argument', () => {
    const r = expectBreak(
      ADD,
      'add.Tensor(Tensor self, Tensor other2, *, Scalar alpha=1) -> Tensor',
      'renamed_arg',
    );
    expect(r.breaks).toHaveLength(1);
    expect(r.breaks[0].message).toBe("argument 'other' renamed to 'other2'");
  });

  test('moved (reordered) argument', () => {
    expectBreak(
      'f(Tensor self, int a, int b) -> Tensor',
      'f(Tensor self, int b, int a) -> Tensor',
      'moved_arg',
    );
  });

  test('argument type changed', () => {
    const r = expectBreak(
      ADD,
      'add.Tensor(Tensor self, Tensor other, *, float alpha=1) -> Tensor',
      'type_changed',
    );
    expect(r.breaks[0]).toMatchObject({ arg: 'alpha', old: 'Scalar', new: 'float' });
    // Narrowing is a break too (old callers may pass None / a float).
    expectBreak('f(int? a) -> Tensor', 'f(int a) -> Tensor', 'type_changed');
    expectBreak('f(Scalar a) -> Tensor', 'f(int a) -> Tensor', 'type_changed');
    expectBreak('f(int[] a) -> Tensor', 'f(int[2] a) -> Tensor', 'type_changed');
  });

  test('alias annotation changed', () => {
    expectBreak('f_(Tensor(a!) self) -> Tensor(a!)', 'f_(Tensor self) -> Tensor(a!)', 'alias_changed');
  });

  test('default changed or removed', () => {
    const r = expectBreak(
      ADD,
      'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=2) -> Tensor',
      'default_changed',
    );
    expect(r.breaks[0]).toMatchObject({ arg: 'alpha', old: '1', new: '2' });
    expectBreak(ADD, 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha) -> Tensor', 'default_removed');
  });

  test('new argument without a default', () => {
    const r = expectBreak(
      ADD,
      'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1, int beta) -> Tensor',
      'added_arg_without_default',
    );
    expect(r.breaks[0]).toMatchObject({ arg: 'beta', old: null, new: '*, int beta' });
  });

  test('return changed', () => {
    expectBreak('f(Tensor self) -> Tensor', 'f(Tensor self) -> (Tensor, Tensor)', 'return_changed');
    expectBreak('f(Tensor self) -> Tensor', 'f(Tensor self) -> Tensor?', 'return_changed');
    expectBreak(
      'max.dim(Tensor self, int dim) -> (Tensor values, Tensor indices)',
      'max.dim(Tensor self, int dim) -> (Tensor vals, Tensor indices)',
      'return_changed',
    );
  });

  test('positional argument moved to keyword-only', () => {
    const r = expectBreak(
      'add.Tensor(Tensor self, Tensor other, Scalar alpha=1) -> Tensor',
      ADD,
      'kwarg_only_move',
    );
    expect(kinds(r)).toEqual({ bc: ['kwarg_only_move'], fc: [] });
  });

  test('varargs added or removed', () => {
    expectBreak('f(str self, ...) -> str', 'f(str self) -> str', 'vararg_changed');
  });
});

describe('FC breaks warn without failing', () => {
  test('a new trailing argument with a default', () => {
    const r = check(
      ADD,
      'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1, bool fast=False) -> Tensor',
    );
    expect(r.ok).toBe(true);
    expect(kinds(r)).toEqual({ bc: [], fc: ['added_arg_with_default'] });
    expect(r.warnings[0]).toMatchObject({
      op: 'add.Tensor',
      arg: 'fast',
      severity: 'fc',
      new: '*, bool fast=False',
    });
    expect(formatBcReport(r)).toMatch(/warning FC add\.Tensor \[added_arg_with_default\]/);
    expect(formatBcReport(r)).toMatch(/^OK: 0 BC break\(s\), 1 FC warning\(s\)/m);
  });

  test('before the out arguments, a defaulted argument is FC only (out args align separately)', () => {
    const r = check(
      'abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)',
      'abs.out(Tensor self, int k=0, *, Tensor(a!) out) -> Tensor(a!)',
    );
    expect(kinds(r)).toEqual({ bc: [], fc: ['added_arg_with_default'] });
  });

  test('default added, type widened, keyword-only relaxed, return narrowed', () => {
    expect(kinds(check('f(int a) -> Tensor', 'f(int a=0) -> Tensor'))).toEqual({
      bc: [],
      fc: ['default_added'],
    });
    expect(kinds(check('f(int a) -> Tensor', 'f(int? a) -> Tensor'))).toEqual({
      bc: [],
      fc: ['type_widened'],
    });
    expect(kinds(check('f(int a) -> Tensor', 'f(Scalar a) -> Tensor'))).toEqual({
      bc: [],
      fc: ['type_widened'],
    });
    expect(kinds(check('f(Tensor s, *, int a) -> Tensor', 'f(Tensor s, int a) -> Tensor'))).toEqual({
      bc: [],
      fc: ['kwarg_only_relaxed'],
    });
    expect(kinds(check('f(Tensor s) -> Tensor?', 'f(Tensor s) -> Tensor'))).toEqual({
      bc: [],
      fc: ['return_narrowed'],
    });
  });

  test('a new overload is information only; equal schemas are no change', () => {
    const r = check([ADD], [ADD, 'add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor']);
    expect(r.ok).toBe(true);
    expect(r.added.map((c) => c.op)).toEqual(['add.Scalar']);
    expect(r.stale).toBe(true);
    const same = check(ADD, ADD);
    expect(same).toMatchObject({ ok: true, breaks: [], warnings: [], added: [], stale: false });
  });
});

describe('allowlist', () => {
  const removeAlpha = 'add.Tensor(Tensor self, Tensor other) -> Tensor';
  const fcOnly = 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1, int k=0) -> Tensor';

  test('an active entry suppresses breaks and warnings of matching ops, through its date', () => {
    const entry = { op: 'add.Tensor', until: '2025-06-15', reason: 'migrating alpha' };
    for (const neu of [removeAlpha, fcOnly]) {
      const r = check(ADD, neu, [entry]);
      expect(r.ok).toBe(true);
      expect(r.breaks).toEqual([]);
      expect(r.warnings).toEqual([]);
      expect(r.allowed).toHaveLength(1);
      expect(r.allowed[0].entry).toBe(entry);
    }
    expect(formatBcReport(check(ADD, removeAlpha, [entry]))).toMatch(
      /allowed BC add\.Tensor \[removed_arg\].*allowlisted until 2025-06-15: migrating alpha/,
    );
    // Regex entries match the whole qualified name.
    expect(check(ADD, removeAlpha, [{ ...entry, op: 'add\\..*' }]).ok).toBe(true);
    expect(check(ADD, removeAlpha, [{ ...entry, op: 'add' }]).ok).toBe(false);
    expect(check(ADD, removeAlpha, [{ ...entry, op: 'dd\\.Tensor' }]).ok).toBe(false);
  });

  test('an expired entry is reported and suppresses nothing; an unused one is reported', () => {
    const entry = { op: 'add.Tensor', until: '2025-06-14', reason: 'migrating alpha' };
    const r = check(ADD, removeAlpha, [entry]);
    expect(r.ok).toBe(false);
    expect(r.expired).toEqual([entry]);
    expect(r.allowed).toEqual([]);
    expect(formatBcReport(r)).toContain('expired allowlist entry "add.Tensor" (until 2025-06-14');
    const unused = { op: 'mul.Tensor', until: '2030-01-01', reason: 'x' };
    const u = check(ADD, ADD, [unused]);
    expect(u).toMatchObject({ ok: true, expired: [], unused: [unused] });
  });

  test('entries are validated', () => {
    const ok = '[{"op": "add.Tensor", "until": "2025-01-31", "reason": "r"}]';
    expect(parseAllowlist(ok)).toEqual([{ op: 'add.Tensor', until: '2025-01-31', reason: 'r' }]);
    expect(() => parseAllowlist('{}')).toThrow(/array/);
    expect(() => parseAllowlist('[{"op": "a", "until": "2025-02-30", "reason": "r"}]')).toThrow(/YYYY-MM-DD/);
    expect(() => parseAllowlist('[{"op": "a", "until": "2025-01-01"}]')).toThrow(/reason/);
    expect(() => parseAllowlist('[{"op": "a(", "until": "2025-01-01", "reason": "r"}]')).toThrow(/regex/);
  });
});

describe('snapshot', () => {
  test('the committed snapshot is the live operator table (run `opgate bc update` after a schema change)', () => {
    const live = liveSchemas();
    expect(Object.keys(live).length).toBeGreaterThan(100);
    expect(readFileSync(DEFAULT_SNAPSHOT, 'utf8')).toBe(serializeSnapshot(live));
    const r = checkBc(readSnapshot(), live, readAllowlist(DEFAULT_ALLOWLIST), TODAY);
    expect(r).toMatchObject({ ok: true, breaks: [], warnings: [], added: [], expired: [], stale: false });
  });

  test('the snapshot is validated: keys are qualified names of parseable schemas', () => {
    const good = serializeSnapshot(schemaMapOf([ADD]));
    expect(parseSnapshot(good)).toEqual({ 'add.Tensor': ADD });
    expect(() =>
      parseSnapshot('{"version": 1, "schemas": {"add": "add.Tensor(Tensor a) -> Tensor"}}'),
    ).toThrow(/key add holds the schema of add\.Tensor/);
    expect(() => parseSnapshot('{"version": 1, "schemas": {"f": "f(Tensor a"}}')).toThrow(/f: cannot parse/);
    expect(() => parseSnapshot('[]')).toThrow(/version/);
  });
});

describe('opgate bc (CLI)', () => {
  /** The bc commands in-process (main.ts parses argv at import; bc.ts registers on any program). */
  async function inProcess(args: string[]) {
    const program = new Command('opgate').exitOverride();
    registerBcCommands(program);
    const out: string[] = [];
    const err: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
    const error = vi.spyOn(console, 'error').mockImplementation((...a) => void err.push(a.join(' ')));
    const saved = process.exitCode;
    process.exitCode = undefined;
    try {
      await program.parseAsync(args, { from: 'user' });
      return { status: process.exitCode ?? 0, stdout: out.join('\n'), stderr: err.join('\n') };
    } finally {
      process.exitCode = saved;
      log.mockRestore();
      error.mockRestore();
    }
  }

  const dir = mkdtempSync(join(tmpdir(), 'opgate-bc-'));
  const tampered = join(dir, 'tampered.json');
  const allow = join(dir, 'allow.json');
  const doc = JSON.parse(readFileSync(DEFAULT_SNAPSHOT, 'utf8'));
  doc.schemas['add.Tensor'] = 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1, int beta) -> Tensor';
  writeFileSync(tampered, JSON.stringify(doc));
  writeFileSync(allow, JSON.stringify([{ op: 'add.Tensor', until: '2025-01-01', reason: 'old' }]));

  test('end to end (bin/opgate.mjs): exit 1 and the break on a tampered snapshot, exit 0 on the repo', async () => {
    const bin = join(import.meta.dirname, '../../bin/opgate.mjs');
    const run = (args: string[]) =>
      new Promise<{ status: number | null; stdout: string }>((done) => {
        const child = spawn('node', [bin, ...args], {
          timeout: 60_000,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let stdout = '';
        child.stdout.on('data', (d) => {
          stdout += d;
        });
        child.on('close', (status) => done({ status, stdout }));
      });
    const [bad, ok] = await Promise.all([
      run(['bc', 'check', '--snapshot', tampered, '--allowlist', allow, '--today', '2025-01-02']),
      run(['bc', 'check']),
    ]);
    expect(bad.status, bad.stdout).toBe(1);
    expect(bad.stdout).toContain("error   BC add.Tensor [removed_arg]: argument 'beta' removed");
    expect(bad.stdout).toContain('expired allowlist entry "add.Tensor" (until 2025-01-01: old)');
    expect(bad.stdout).toMatch(/^FAIL: 1 BC break\(s\)/m);
    expect(ok.status, ok.stdout).toBe(0);
    expect(ok.stdout).toMatch(/^OK: 0 BC break\(s\), 0 FC warning\(s\)/m);
  }, 60_000);

  test('update writes the live table; --json; an allowlist entry on its last day; usage errors exit 2', async () => {
    const fresh = join(dir, 'fresh.json');
    const up = await inProcess(['bc', 'update', '--snapshot', fresh]);
    expect(up.status).toBe(0);
    expect(up.stdout).toMatch(/^wrote \d+ overload schemas to /);
    expect(readFileSync(fresh, 'utf8')).toBe(readFileSync(DEFAULT_SNAPSHOT, 'utf8'));
    const again = await inProcess(['bc', 'update', '--snapshot', fresh]);
    expect(again.stdout).toContain(
      '(0 BC break(s), 0 FC change(s), 0 new overload(s) since the previous snapshot)',
    );

    const json = await inProcess([
      'bc',
      'check',
      '--snapshot',
      tampered,
      '--allowlist',
      allow,
      '--today',
      '2025-01-01',
      '--json',
    ]);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      allowed: [{ change: { kind: 'removed_arg' } }],
    });

    const missing = await inProcess(['bc', 'check', '--snapshot', join(dir, 'none.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('opgate bc update');
    const badDate = await inProcess(['bc', 'check', '--today', '2025-13-01']);
    expect(badDate.status).toBe(2);
    expect(badDate.stderr).toContain('--today must be a YYYY-MM-DD date');
    const badAllow = await inProcess(['bc', 'check', '--allowlist', join(dir, 'none.json')]);
    expect(badAllow.status).toBe(2);
  });
});
