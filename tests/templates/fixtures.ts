/**
 * Test fixtures for the flaky-test machinery (not runtime bugs), passed to defineMatrixTests by every template:
 * `OPGATE_FLAKY_FIXTURE="<id>=<p>,..."` makes an instance fail on a seeded fraction p of its attempts,
 * `OPGATE_BROKEN_FIXTURE="<id>,..."` makes it fail always. Attempts are counted per process, and the seeded
 * sequence is a pure function of the id and the attempt number. `OPGATE_COLLECT_FAULT="<oracle>,..."` makes
 * those oracles' template files throw while vitest collects them, as a file that fails to import would: none of
 * their instances reports a result.
 */
import { hashString, rng } from '../../op_db/index.ts';
import type { MatrixFaults } from '../../src/ci/index.ts';

const attempts = new Map<string, number>();

function parse(): { flaky: Map<string, number>; broken: Set<string> } {
  const flaky = new Map<string, number>();
  for (const part of (process.env.OPGATE_FLAKY_FIXTURE ?? '').split(',').filter(Boolean)) {
    const [id, p] = part.split('=');
    flaky.set(id, Number(p));
  }
  const broken = new Set((process.env.OPGATE_BROKEN_FIXTURE ?? '').split(',').filter(Boolean));
  return { flaky, broken };
}

/** Throws the fixture's injected failure for this attempt of `id`, if any. */
function fixtureFault(id: string): void {
  const { flaky, broken } = parse();
  if (broken.has(id)) throw new Error(`fixture: ${id} always fails (OPGATE_BROKEN_FIXTURE)`);
  const p = flaky.get(id);
  if (p === undefined) return;
  const k = (attempts.get(id) ?? 0) + 1;
  attempts.set(id, k);
  if (rng(hashString(`${id}#${k}`))() < p)
    throw new Error(
      `fixture: injected flaky failure of ${id} on attempt ${k} (OPGATE_FLAKY_FIXTURE, p=${p})`,
    );
}

/** Throws while collecting `oracle`'s template file, if OPGATE_COLLECT_FAULT names it. */
function collectFault(oracle: string): void {
  if ((process.env.OPGATE_COLLECT_FAULT ?? '').split(',').includes(oracle))
    throw new Error(`fixture: the ${oracle} template fails to load (OPGATE_COLLECT_FAULT)`);
}

export const faults: MatrixFaults = { collect: collectFault, attempt: fixtureFault };
