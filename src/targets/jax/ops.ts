/**
 * jax-js's op rows: one per op_db name, calling @jax-js/jax's public API (numpy, nn, lax, scipySpecial), split by
 * family. PyTorch's arguments arrive bound by name (PyTorch's defaults filled in); an argument jax-js has no
 * counterpart for is NotExpressible, and an op it has no counterpart for is unmapped, with the reason.
 */
import type { Row } from './common.ts';
import { NN_OPS } from './ops_nn.ts';
import { POINTWISE_OPS } from './ops_pointwise.ts';
import { REDUCTION_OPS } from './ops_reduce.ts';
import { SHAPE_OPS } from './ops_shape.ts';
import { UNMAPPED_OPS } from './ops_unmapped.ts';

export const JAX_OPS: Readonly<Record<string, Row>> = {
  ...POINTWISE_OPS,
  ...REDUCTION_OPS,
  ...SHAPE_OPS,
  ...NN_OPS,
  ...UNMAPPED_OPS,
};
