#!/usr/bin/env node
// The opgate CLI is TypeScript; tsx's loader runs it without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/ci/cli/main.ts');
