/**
 * Every command README.md and docs/*.md show is real: each `opgate ...` command line (in a code block, or a code
 * span that starts with it) names an existing command and subcommand and only options that command has, read from
 * the commander program itself (as bin/main.mjs composes it); each `npm run <script>` is a script of package.json.
 * docs/cli.md is left out: it is that program's own help (docs_generated.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { registerDashboardCommands } from '../../dashboards/index.ts';
import { buildCli } from '../../src/ci/cli/main.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'cli.md')
    .map((f) => `docs/${f}`),
];
const SCRIPTS = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts);

const program = buildCli();
registerDashboardCommands(program);

/** The `opgate` command lines of a page: code-block lines (continuations joined, comments cut) and code spans. */
function commandLines(md: string): string[] {
  const out: string[] = [];
  let fenced = false;
  const lines = md.replace(/\\\n\s*/g, ' ').split('\n');
  for (const line of lines) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (fenced || /^ {4}/.test(line)) {
      const m = /(?:^|\s)(?:npx )?opgate (.*)$/.exec(line.replace(/\s#\s.*$/, ''));
      if (m && /(^|\s)npx opgate /.test(line)) out.push(m[1].replace(/\s+/g, ' ').trim());
    } else
      for (const [, span] of line.matchAll(/`([^`]+)`/g)) {
        const m = /^(?:[A-Z_]+=\S+ )*(?:npx )?opgate (.+)$/.exec(span);
        if (m) out.push(m[1].replace(/\s+/g, ' ').trim());
      }
  }
  return out;
}

/** What is wrong with `opgate <args>`, or null: unknown (sub)commands and options. */
function problem(args: string): string | null {
  const tokens = args
    .split(/\s+/)
    .map((t) => t.replace(/^[[(]+|[\]),;\\]+$/g, ''))
    .filter(Boolean);
  let cmd: Command = program;
  let i = 0;
  for (; i < tokens.length && !tokens[i].startsWith('-'); i++) {
    const sub = cmd.commands.find((c) => c.name() === tokens[i] || c.aliases().includes(tokens[i]));
    if (sub) cmd = sub;
    else if (cmd === program || (cmd.commands.length > 0 && cmd.registeredArguments.length === 0))
      return `no command '${tokens.slice(0, i + 1).join(' ')}'`;
    else break;
  }
  const has = (c: Command, flag: string) =>
    flag === '--help' || flag === '-h' || c.options.some((o) => o.long === flag || o.short === flag);
  for (const t of tokens.slice(i)) {
    if (!/^--?[a-z]/.test(t)) continue;
    const flag = t.split('=')[0];
    // A command with a default subcommand (`dashboard` is `dashboard serve`) passes its options on; the
    // program's own options (--config) go with every command.
    if (!has(cmd, flag) && !cmd.commands.some((c) => has(c, flag)) && !has(program, flag))
      return `'opgate ${cmd.name()}' has no option ${flag}`;
  }
  return null;
}

describe('the commands the docs show exist', () => {
  test('the finder reads code blocks and spans, and knows a bad command or option', () => {
    const md =
      '```sh\nnpx opgate run --op add \\\n  --db x.db   # a comment --nope\n```\nsee `opgate shard plan --shards 4`';
    expect(commandLines(md)).toEqual(['run --op add --db x.db', 'shard plan --shards 4']);
    expect(problem('run --op add --db x.db')).toBeNull();
    expect(problem('dashboard --db demo.db --port 0')).toBeNull();
    expect(problem('runn --op add')).toMatch(/no command 'runn'/);
    expect(problem('shard plann')).toMatch(/no command 'shard plann'/);
    expect(problem('run --no-such-flag')).toMatch(/no option --no-such-flag/);
    expect(problem('run --config opgate.config.ts --op add')).toBeNull();
  });

  test.each(PAGES)('every opgate command line of %s is a real command with real options', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const bad = commandLines(text).flatMap((c) => {
      const p = problem(c);
      return p ? [`opgate ${c}: ${p}`] : [];
    });
    expect(bad).toEqual([]);
  });

  test.each(PAGES)('every `npm run` script of %s exists', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const missing = [...text.matchAll(/npm run ([\w:-]+)/g)]
      .map((m) => m[1])
      .filter((s) => !SCRIPTS.includes(s));
    expect(missing).toEqual([]);
  });

  test('the README shows the set-up commands and the tour', () => {
    const readme = commandLines(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(readme).toEqual(expect.arrayContaining(['run', 'dashboard']));
    expect(readme.some((c) => /^repro \S+ --sample \d+$/.test(c))).toBe(true);
  });
});
