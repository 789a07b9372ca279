/**
 * The losses: regression, classification (nll, cross_entropy), binary, margin and embedding losses, CTC, and the
 * reduction argument they share.
 */
export { type LOSS_BINARY_API, registerLossBinary } from './binary.ts';
export { registerLossClass } from './class.ts';
export { type CTC_API, registerCtcLoss } from './ctc.ts';
export { type LOSS_MARGIN_API, registerLossMargin } from './margin.ts';
export { type LOSS_MARGIN_FUNCTIONAL_API, registerLossMarginFunctional } from './margin_functional.ts';
export { type MULTI_MARGIN_API, registerMultiMarginLoss } from './margin_multi.ts';
export { type MULTILABEL_MARGIN_API, registerMultilabelMarginLoss } from './margin_multilabel.ts';
export { type LOSS_REGRESSION_API, registerLossRegression } from './regression.ts';
