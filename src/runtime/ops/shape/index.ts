/**
 * Shape and view ops: views (view, reshape, permute, slicing, the split family), the shape ops that copy (cat,
 * stack, flip, roll, tril/triu), copy_ / to / clone, and the *_scatter inverses of views.
 */
export { type COPY_API, registerCopies } from './copy.ts';
export { registerScatterViews, type SCATTER_VIEW_API } from './scatter_views.ts';
export { isChannelsLast, isChannelsLastStrides, registerShapeOps, type SHAPE_API } from './shape.ts';
export { makeView, registerViews, selectDim, sliceDim, type VIEW_API } from './views.ts';
export type { SPLIT_API } from './views_split.ts';
