/**
 * Products: mm, bmm, mv, dot, matmul, the strided cpu gemm behind them, and where PyTorch 1.13 rounds a bfloat16
 * product.
 */
export { gemmAt, type MatrixAt } from './gemm.ts';
export { type LINALG_API, registerLinalg } from './linalg.ts';
