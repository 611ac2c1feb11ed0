export { decodeParsedPayloads, decodePayloads, type BlobReader } from './decode-payloads.js';
export { PayloadBatch, encodePayload } from './encode-payload.js';
export {
  BLOB_DIGEST_LENGTH,
  BLOB_KEY,
  EXTERNALIZE_AT_BYTES,
  LITERAL_KEY,
  TREE_KEY,
  isReferenceText,
  referenceText,
  type PayloadBlob,
} from './payload-refs.js';
export { decodingStored } from './stored-json.js';
