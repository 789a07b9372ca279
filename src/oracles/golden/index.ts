/** The golden oracle (runtime vs recorded PyTorch results) and the golden files' format. */
export {
  blobKey,
  decodeValues,
  encodeGolden,
  GOLDEN_DIR,
  GOLDEN_FORMAT,
  type GoldenEntry,
  type GoldenFile,
  type GoldenOutput,
  goldenPath,
  readGolden,
  recordCommand,
  writeGolden,
} from './files.ts';
export { instanceRequests, runGolden } from './oracle.ts';
export { type GoldenRequest, goldenRequests, goldenSeed, recordsGradients } from './requests.ts';
export {
  fingerprint,
  type GoldenCall,
  type GoldenKind,
  type GoldenValue,
  serializeCall,
} from './serialize.ts';
export { ulpError, ulpOf } from './ulp.ts';
