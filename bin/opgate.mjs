#!/usr/bin/env node
// The opgate CLI is TypeScript; tsx's loader runs it without a build step.
import { register } from 'tsx/esm/api';

// Headless EGL for the webgpu device's software adapter (see README, "WebGPU"); set before any worker starts.
process.env.EGL_PLATFORM ??= 'surfaceless';
register();
// The CLI is composed here, above every layer: ci's commands, then the dashboards' (which sit above ci).
const { buildCli } = await import('../src/ci/cli/main.ts');
const { registerDashboardCommands } = await import('../dashboards/index.ts');
// `opgate list | head` closes stdout early; that is not an error.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
const { isCodedError } = await import('../src/ci/errors.ts');
const program = buildCli();
registerDashboardCommands(program);
// A coded error (a bad flag, a missing or foreign file) is the user's to fix: one line on stderr, exit 2. Anything
// else is a bug and keeps its stack. OPGATE_DEBUG=1 shows the stack in both cases.
try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (process.env.OPGATE_DEBUG === '1' || !isCodedError(e)) throw e;
  process.stderr.write(`opgate: ${e.message.split('\n')[0]}\n`);
  process.exit(2);
}
