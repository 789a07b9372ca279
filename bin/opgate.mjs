#!/usr/bin/env node
// The opgate CLI is TypeScript; tsx's loader runs it without a build step.
import { register } from 'tsx/esm/api';

// Headless EGL for the webgpu device's software adapter (see README, "WebGPU"); set before any worker starts.
process.env.EGL_PLATFORM ??= 'surfaceless';
register();
await import('../src/ci/cli/main.ts');
