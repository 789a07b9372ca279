import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Dawn's OpenGL ES backend on Mesa needs a display-less EGL. Worker threads cannot change the environment
// native code sees, so it is set here, in the main process, before any worker starts.
process.env.EGL_PLATFORM ??= 'surfaceless';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'dashboards/**/*.test.ts'],
    pool: 'threads',
    // vitest's default leaves a core idle (cores - 1: one worker on a 2-core runner), but many files spend their
    // time waiting on child processes (the CLI, valgrind, Chromium): every core gets a worker.
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    // Some files build op_db's whole sample set once in beforeAll (seconds, more on a loaded runner).
    hookTimeout: 60_000,
  },
});
