// The opgate command line as a function (bin/opgate.mjs is its process): the CLI is composed here, above every
// layer: ci's commands, then the dashboards' (which sit above ci). Expects tsx's loader to be registered.
import { existsSync } from 'node:fs';

// In opgate's repository the CLI runs its TypeScript sources; the installed package (`npm pack`) has only the
// compiled dist/, which is also what a project's `import 'opgate'` loads: one runtime, one operator table.
const SOURCES = existsSync(new URL('../src/ci/cli/main.ts', import.meta.url));
const module = (path) => (SOURCES ? `../${path}.ts` : `../dist/${path}.js`);

/**
 * Parses and runs `argv` (process.argv's shape). A coded error (a bad flag, a missing or foreign file) is the
 * user's to fix: one line on `stderr` and 2 is returned. Anything else is a bug and is thrown with its stack.
 * OPGATE_DEBUG=1 throws in both cases. Returns undefined when the command ran (process.exitCode holds its verdict).
 */
export async function main(argv, stderr = process.stderr) {
  const { buildCli } = await import(module('src/ci/cli/main'));
  const { registerDashboardCommands } = await import(module('dashboards/index'));
  const { isCodedError } = await import(module('src/ci/errors'));
  const { dbError } = await import(module('src/ci/store/db_errors'));
  const program = buildCli();
  registerDashboardCommands(program);
  try {
    await program.parseAsync(argv);
    return undefined;
  } catch (thrown) {
    // A SQLite failure that no store function named a file for is still the user's to fix (a full disk, a
    // read-only or damaged file): coded, never a trace.
    const e = dbError(thrown, 'the results database', 'running the command');
    if (process.env.OPGATE_DEBUG === '1' || !isCodedError(e)) throw thrown;
    stderr.write(`opgate: ${e.message.split('\n')[0]}\n`);
    return 2;
  }
}
