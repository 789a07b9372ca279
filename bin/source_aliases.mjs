// In opgate's own repository, `import 'opgate'` (and 'opgate/testing', 'opgate/cli') means the TypeScript sources,
// not the compiled dist/ that package.json's exports name: examples/myops, written as a user writes it, then runs
// in-tree on the one runtime the CLI and the test workers load. Derived from the exports (./dist/X.js -> ./X.ts).
// bin/opgate.mjs registers the resolve hook below; vitest.config.ts uses sourceAliases(). The installed package
// (no src/) never registers it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = new URL('../', import.meta.url);

/** Whether the sources are here (opgate's repository) rather than only dist/ (the installed package). */
export const hasSources = () => existsSync(new URL('src/ci/cli/main.ts', ROOT));

/** Each specifier of package.json's exports -> the absolute path of its source file. */
export function sourceAliases() {
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));
  const out = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    const file = typeof target === 'string' ? target : target.default;
    if (!file.endsWith('.js') && !file.endsWith('.mjs')) continue;
    const source = file.startsWith('./dist/') ? `./${file.slice('./dist/'.length, -'.js'.length)}.ts` : file;
    out[`${pkg.name}${key.slice(1)}`] = fileURLToPath(new URL(source, ROOT));
  }
  return out;
}

let aliases = null;

/** Node's resolve hook (module.register): the package's own specifiers to their sources. */
export async function resolve(specifier, context, next) {
  aliases ??= sourceAliases();
  const path = aliases[specifier];
  return next(path ? pathToFileURL(path).href : specifier, context);
}
