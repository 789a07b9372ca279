/**
 * OpInfos of the factories and fill_.
 */
export { FACTORY_OPINFOS } from './factories.ts';
