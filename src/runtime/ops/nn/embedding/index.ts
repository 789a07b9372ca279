/**
 * Embeddings and one-hot: embedding, embedding_bag, F.one_hot.
 */
export { type EMBEDDING_API, indexValues, registerEmbedding, tensorTypeName } from './embedding.ts';
export { registerEmbeddingBag } from './embedding_bag.ts';
export { type NN_ONE_HOT_API, registerNnOneHot } from './one_hot.ts';
