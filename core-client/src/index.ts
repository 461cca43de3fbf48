export { Secret, isSecret } from './secret.js';
export { RecordLocationSchema, formatLocation, type RecordLocation } from './location.js';
export * from './contract/index.js';
export * from './http/index.js';
export * from './hashes/index.js';
export * from './push/index.js';
export * from './connection/index.js';
export * from './sources/index.js';
export * from './plan/index.js';
