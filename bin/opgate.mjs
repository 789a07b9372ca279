#!/usr/bin/env node
// The opgate CLI is TypeScript; tsx's loader runs it without a build step.
import { register } from 'tsx/esm/api';

// Headless EGL for the webgpu device's software adapter (see docs/runtime.md, "WebGPU"); set before any worker starts.
process.env.EGL_PLATFORM ??= 'surfaceless';
register();
// In opgate's repository, a config's `import 'opgate'` loads the sources the CLI runs (bin/source_aliases.mjs).
const aliases = await import('./source_aliases.mjs');
if (aliases.hasSources()) (await import('node:module')).register('./source_aliases.mjs', import.meta.url);
const { main } = await import('./main.mjs');
// `opgate list | head` closes stdout early; that is not an error.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
const code = await main(process.argv);
// Exits at once on an input error, as before: nothing the failed command opened may keep the process alive.
if (code !== undefined) process.exit(code);
