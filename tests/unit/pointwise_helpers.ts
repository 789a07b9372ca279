/** Small helpers shared by the pointwise test files (not a test file itself). */
import { expect } from 'vitest';

/** Rounds each value to float32, as a float32 tensor stores it. */
export const f32 = (xs: number[]) => xs.map(Math.fround);
/** Matches an OpgateError carrying error code `c`. */
export const code = (c: string) => expect.objectContaining({ code: c });
