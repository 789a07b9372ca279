// Runs many `opgate` command lines in this one process (node cli_batch.mjs '<json [{args, cwd}]>'), each through
// bin/main.mjs as bin/opgate.mjs runs it, and prints [{code, stdout, stderr}] as JSON: one node start-up (about 2 s
// of CPU) for them all. An exception that would have been uncaught is reported as node reports one: its stack on
// stderr, exit 1.
import { inspect } from 'node:util';
import { register } from 'tsx/esm/api';

process.env.EGL_PLATFORM ??= 'surfaceless';
register();
const { main } = await import('../../bin/main.mjs');

class Exit extends Error {
  constructor(code) {
    super(`process.exit(${code})`);
    this.code = code;
  }
}
const real = { out: process.stdout.write, err: process.stderr.write, exit: process.exit };
const outcomes = [];
for (const { args, cwd } of JSON.parse(process.argv[2])) {
  const o = { code: null, stdout: '', stderr: '' };
  process.stdout.write = (c) => {
    o.stdout += c;
    return true;
  };
  process.stderr.write = (c) => {
    o.stderr += c;
    return true;
  };
  process.exit = (code) => {
    throw new Exit(code ?? process.exitCode ?? 0);
  };
  process.exitCode = undefined;
  process.chdir(cwd);
  try {
    o.code = (await main(['node', 'opgate', ...args])) ?? process.exitCode ?? 0;
  } catch (e) {
    if (e instanceof Exit) o.code = e.code;
    else {
      o.stderr += `${inspect(e)}\n`;
      o.code = 1;
    }
  }
  Object.assign(process.stdout, { write: real.out });
  Object.assign(process.stderr, { write: real.err });
  process.exit = real.exit;
  outcomes.push(o);
}
// Exits once written: a handle a failed command left open must not keep the batch alive.
process.stdout.write(JSON.stringify(outcomes), () => process.exit(0));
