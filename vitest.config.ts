import { defineConfig } from 'vitest/config';

// Dawn's OpenGL ES backend on Mesa needs a display-less EGL. Worker threads cannot change the environment
// native code sees, so it is set here, in the main process, before any worker starts.
process.env.EGL_PLATFORM ??= 'surfaceless';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'dashboards/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 30_000,
  },
});
