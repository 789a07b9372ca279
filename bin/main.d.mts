// The types of bin/main.mjs: `import { main } from 'opgate/cli'` runs the opgate command line in-process.

/**
 * Parses and runs `argv` (process.argv's shape: node, script, then the command). A coded error (a bad flag, a
 * missing or foreign file) is written as one line to `stderr` and 2 is returned; undefined when the command ran
 * (process.exitCode holds its verdict).
 */
export function main(argv: readonly string[], stderr?: NodeJS.WritableStream): Promise<number | undefined>;
