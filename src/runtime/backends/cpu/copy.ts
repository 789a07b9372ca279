/** Strided copy with dtype conversion (copy_, contiguous, clone, to): the identity pointwise op. */
import type { Tensor } from '../../core/index.ts';
import { runPointwise } from './pointwise.ts';

const identity = (x: unknown) => x;
const identityComplex = (re: number, im: number) => [re, im];

export function copyInto(dst: Tensor, src: Tensor): void {
  const complex = src.dtype === 'complex64' || src.dtype === 'complex128';
  runPointwise(
    {
      fn: complex ? identityComplex : identity,
      targets: [src.dtype],
      value: src.dtype,
      scalars: [],
      scalarDomainComplex: false,
    },
    dst,
    [src],
  );
}
