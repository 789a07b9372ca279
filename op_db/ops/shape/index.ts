/**
 * OpInfos of the shape and view ops, copies and the *_scatter ops.
 */
export { SCATTER_VIEW_OPINFOS } from './scatter_views.ts';
export { SHAPE_OPINFOS } from './shape.ts';
export { VIEW_OPINFOS } from './views.ts';
