/**
 * docs/cli.md: every command and subcommand of the `opgate` program with its usage, description and options,
 * exactly as commander's own help prints them, at a fixed width (never the terminal's) and without colours, so
 * the page is the same on every machine.
 */
import type { Command } from 'commander';
import { GENERATED_NOTE, prose, table } from './markdown.ts';

/** The width the help text is wrapped at (commander's default is the terminal's, or 80). */
export const HELP_WIDTH = 100;

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * Commander's help for `cmd`, wrapped at HELP_WIDTH, whatever the terminal and its colours. A default under `root`
 * (an absolute path of this checkout, `--snapshot`'s) is shown from the repository root, before wrapping, so the
 * text is the same in every checkout.
 */
export function helpText(cmd: Command, root?: string): string {
  const helper = cmd.createHelp();
  if (root) {
    const relative = (text: string) => text.split(root.endsWith('/') ? root : `${root}/`).join('');
    const option = helper.optionDescription.bind(helper);
    const argument = helper.argumentDescription.bind(helper);
    helper.optionDescription = (o) => relative(option(o));
    helper.argumentDescription = (a) => relative(argument(a));
  }
  helper.helpWidth = HELP_WIDTH;
  helper.prepareContext({ error: false, helpWidth: HELP_WIDTH, outputHasColors: false });
  // The default styles add no colour; a configured one would. ANSI escapes are dropped either way.
  return helper.formatHelp(cmd, helper).replace(ANSI, '').trimEnd();
}

/** The full name of a command, `opgate dashboard build`. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The program's commands, depth first in the order they were added (commander's implicit `help` left out). */
export function walkCommands(program: Command): Command[] {
  const out: Command[] = [];
  const visit = (cmd: Command) => {
    out.push(cmd);
    const helper = cmd.createHelp();
    for (const sub of helper.visibleCommands(cmd)) if (cmd.commands.includes(sub)) visit(sub);
  };
  visit(program);
  return out;
}

/** GitHub's anchor for a heading of plain words (`opgate dashboard build` -> `opgate-dashboard-build`). */
const anchorOf = (heading: string) => heading.toLowerCase().replace(/\s+/g, '-');

/** The CLI reference page (Markdown) of `program`; defaults under `root` are shown relative to it. */
export function renderCliReference(program: Command, root?: string): string {
  const commands = walkCommands(program);
  const lines = [
    `# ${program.name()} command reference`,
    '',
    GENERATED_NOTE('the commander program (src/ci/cli/, dashboards/cli.ts)'),
    '',
    `Every command and subcommand of \`npx ${program.name()}\`, as \`--help\` prints it (wrapped at ${HELP_WIDTH} ` +
      'columns). Exit status: 0 when the command did what it says, 1 when what it checks failed (a failing run, ' +
      'a stale rule, a drift), 2 for a usage or input error (one line on stderr with a stable code).',
    '',
    ...table(
      ['command', 'what it does'],
      commands
        .slice(1)
        .map((c) => [`[\`${commandPath(c)}\`](#${anchorOf(commandPath(c))})`, prose(c.description())]),
    ),
  ];
  for (const cmd of commands) {
    const depth = commandPath(cmd).split(' ').length;
    lines.push(
      '',
      `${'#'.repeat(Math.min(Math.max(depth, 2), 4))} ${commandPath(cmd)}`,
      '',
      '```text',
      helpText(cmd, root),
      '```',
    );
  }
  return `${lines.join('\n')}\n`;
}
