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
const program = buildCli();
registerDashboardCommands(program);
await program.parseAsync(process.argv);
