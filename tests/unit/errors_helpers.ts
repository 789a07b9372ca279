/** Assertions shared by the error-code test files (not a test file itself). */
import { expect } from 'vitest';
import * as T from '../../src/runtime/index.ts';

export interface Want {
  op?: string;
  arg?: string;
  /** Substrings the message must contain. */
  says?: (string | RegExp)[];
  cls?: new (...args: never[]) => T.OpgateError;
}

/** Runs `fn`, expects an OpgateError with `code`, and checks that the message names op / got / expected. */
export function expectCode(fn: () => unknown, code: T.ErrorCode, want: Want = {}): T.OpgateError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(T.OpgateError);
  const err = caught as T.OpgateError;
  expect(err.code).toBe(code);
  expect(err.message.endsWith(`[${code}]`)).toBe(true);
  if (want.cls) expect(err).toBeInstanceOf(want.cls);
  if (want.op !== undefined) {
    expect(err.op).toBe(want.op);
    expect(err.message.startsWith(`${want.op}: `)).toBe(true);
  }
  if (want.arg !== undefined) {
    expect(err.arg).toBe(want.arg);
    expect(err.message).toContain(`argument '${want.arg}'`);
  }
  for (const s of want.says ?? []) expect(err.message).toMatch(s);
  return err;
}

/** The message carries both what the call got and what was expected. */
export function namesGotExpected(err: T.OpgateError): void {
  expect(err.got).toBeDefined();
  expect(err.expected).toBeDefined();
  expect(err.message).toMatch(/; got .+; expected .+ \[E_/);
}
