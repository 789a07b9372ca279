/**
 * onnxruntime-web's op rows: one per op_db name, each building an ONNX node (graph.ts) from PyTorch's arguments
 * bound by name. An argument ONNX has no counterpart for is NotExpressible; an op it has no counterpart for is
 * unmapped, with the reason. The rows are split by family.
 */
import type { OpRow } from '../target.ts';
import type { OrtT } from './graph.ts';
import { INDEX } from './ops_index.ts';
import { LOSS } from './ops_loss.ts';
import { NN } from './ops_nn.ts';
import { POINTWISE } from './ops_pointwise.ts';
import { REDUCE } from './ops_reduce.ts';
import { SHAPE } from './ops_shape.ts';
import { UNMAPPED } from './ops_unmapped.ts';

export const ORT_OPS: Readonly<Record<string, OpRow<unknown, OrtT>>> = {
  ...POINTWISE,
  ...SHAPE,
  ...INDEX,
  ...REDUCE,
  ...NN,
  ...LOSS,
  ...UNMAPPED,
};
