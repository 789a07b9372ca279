/**
 * OpInfos of embedding and embedding_bag.
 */
export { NN_EMBEDDING_OPINFOS } from './embedding.ts';
