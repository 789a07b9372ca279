export { CODEGEN_HELPERS, compileRowLoop, type LoopSpec, type RowLoop, type ScalarFn } from './codegen.ts';
export { copyInto } from './copy.ts';
export {
  bigReader,
  elementCopier,
  forEachLine,
  numberReader,
  numberWriter,
  type Reader,
  type Writer,
} from './elements.ts';
export { forEachRow, type IterPlan, logicalOffsets, planIteration, type RowKernel } from './iterator.ts';
export { type PointwiseCall, type PointwiseMemo, runPointwise } from './pointwise.ts';
export type { ColumnFold } from './wasm/emit.ts';
export { wasmColExtremeF32, wasmExtremeF32 } from './wasm/extreme.ts';
export { type FloatMatrix, WASM_GEMM_MIN_MACS, wasmGemm, wasmGemmAvailable } from './wasm/gemm.ts';
export { type SimdOpName, simdKernel, simdRow } from './wasm/pointwise.ts';
export { wasmColSumF32, wasmSumF32 } from './wasm/reduce.ts';
export { wasmSoftmaxLine } from './wasm/softmax.ts';
export { getNumThreads, setNumThreads } from './wasm/threads.ts';
