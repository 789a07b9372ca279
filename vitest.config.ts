import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { sourceAliases } from './bin/source_aliases.mjs';

// Dawn's OpenGL ES backend on Mesa needs a display-less EGL: set here, in the main process, so every worker
// (a child process) inherits it.
process.env.EGL_PLATFORM ??= 'surfaceless';

export default defineConfig({
  // `import 'opgate'` in examples/myops means this repository's sources, as it does for the CLI (bin/source_aliases.mjs).
  resolve: {
    alias: Object.entries(sourceAliases()).map(([name, path]) => ({
      find: new RegExp(`^${name.replace('/', '\\/')}$`),
      replacement: path,
    })),
  },
  test: {
    // examples/myops's own tests run here on the sources too (CI also runs them installed: .ci/example-myops).
    include: ['tests/**/*.test.ts', 'dashboards/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    // Processes, not threads: two Dawn (webgpu) instances in one process's worker threads segfault now and then
    // (measured: 2 of 4 `opgate run` of softmax, log_softmax and logsumexp with two thread workers; 0 of 3 forked).
    pool: 'forks',
    // vitest's default leaves a core idle (cores - 1: one worker on a 2-core runner), but many files spend their
    // time waiting on child processes (the CLI, valgrind, Chromium): every core gets a worker.
    maxWorkers: availableParallelism(),
    // A hang guard, not a speed check: tests that start whole processes (the CLI, a run) share 2 cores with every
    // other worker's children in CI, and one took over 30 s there for what takes 2.4 s alone.
    testTimeout: 90_000,
    // Some files build op_db's whole sample set once in beforeAll (seconds, more on a loaded runner).
    hookTimeout: 60_000,
    // Transformed modules cached on disk (keyed by each file's content and this config): the suite's own workers
    // and the `opgate run` processes its end-to-end tests start share one cache instead of each transforming the
    // runtime again (src/ci/run/run.ts turns it on for every run).
    experimental: { fsModuleCache: true },
  },
});
