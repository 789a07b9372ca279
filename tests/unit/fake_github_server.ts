/**
 * The stand-in GitHub (fake_github.ts) as its own process, for tools outside the test suite that drive the bot
 * (bench:history's `flaky file-issues`): prints its base URL on the first line, serves until stdin closes.
 *   node --import tsx tests/unit/fake_github_server.ts
 */
import { FakeGitHub } from './fake_github.ts';

const gh = new FakeGitHub();
process.stdout.write(`${await gh.start()}\n`);
process.stdin.resume();
process.stdin.on('end', () => void gh.stop().then(() => process.exit(0)));
