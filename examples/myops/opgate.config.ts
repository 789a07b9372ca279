/**
 * What this project brings to opgate's matrix: importing ops/ registers myops::scale_shift, and its OpInfo joins
 * op_db, so `opgate run --config opgate.config.ts` runs it through the same templates and oracles as the built-in
 * ops (reference, gradcheck, cross-backend cpu vs webgpu, eager vs compile, metadata, errors, ...).
 */
import { defineConfig, unaryOpInfo } from 'opgate/testing';
import './ops/scale_shift.ts';

export default defineConfig({
  opInfos: [
    // The independent reference: the schema's defaults, 2 * x + 1, in float64 (the oracle rounds to the dtype).
    unaryOpInfo('myops::scale_shift', (x) => 2 * x + 1, { dtypes: ['float32', 'float64'] }),
  ],
});
