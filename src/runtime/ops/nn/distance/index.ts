/**
 * Distances and normalisation: cosine_similarity, pairwise_distance, pdist, cdist, F.normalize.
 */
export { type NN_DISTANCE_API, registerNnDistance } from './distance.ts';
