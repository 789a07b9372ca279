#!/usr/bin/env node
// The opgate CLI is TypeScript; tsx's loader runs it without a build step.
import { register } from 'tsx/esm/api';

// Headless EGL for the webgpu device's software adapter (see docs/runtime.md, "WebGPU"); set before any worker starts.
process.env.EGL_PLATFORM ??= 'surfaceless';
register();
const { main } = await import('./main.mjs');
// `opgate list | head` closes stdout early; that is not an error.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
const code = await main(process.argv);
// Exits at once on an input error, as before: nothing the failed command opened may keep the process alive.
if (code !== undefined) process.exit(code);
