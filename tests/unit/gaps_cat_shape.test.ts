/**
 * Issue 20, cat's shape rule: meta, cpu and webgpu share one meta function, so the metadata oracle cannot see it
 * wrong; the golden oracle compares every output's shape and dtype with PyTorch's. Each bug here is injected into
 * cat's cpu kernel and must fail the matrix's golden instance.
 */
import { expect, test } from 'vitest';
import { runOracle } from '../../src/oracles/index.ts';
import { wrapDim } from '../../src/runtime/core/index.ts';
import type { Tensor } from '../../src/runtime/index.ts';
import { matrixInstance, oracleFailure, swapKernel } from './inject_helpers.ts';

const golden = () => runOracle(matrixInstance('cat', 'golden', 'float32', 'contiguous'));

test('the first member counted twice along dim', async () => {
  swapKernel('cat', (real) => (ks, args, op) => {
    const ts = args.tensors as Tensor[];
    return real(ks, { ...args, tensors: [ts[0], ...ts] }, op);
  });
  const f = await oracleFailure(golden);
  expect(f.message).toMatch(/sample #0 .*output 0 shape \[8, 3\], PyTorch gives \[6, 3\]/);
});

test('dim wrapped against a skipped legacy 1-D empty when nothing else is left', async () => {
  swapKernel('cat', (real) => (ks, args, op) => {
    const ts = args.tensors as Tensor[];
    // The bug: the first member stands in for a missing non-skipped one, so dim is checked against 1-D.
    if (ts.every((t) => t.ndim === 1 && t.numel === 0)) wrapDim(args.dim as number, ts[0].ndim, 'cat');
    return real(ks, args, op);
  });
  const f = await oracleFailure(golden);
  expect(f.message).toMatch(/sample #8 \(sample only legacy 1-D empties, dim 1\).*Dimension out of range/);
});
