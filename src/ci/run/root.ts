import { fileURLToPath } from 'node:url';

/** The repository root: vitest's root for a run, git's working directory, where bench/ and tests/ live. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
