export { Secret, isSecret } from './secret.js';
export { RecordLocationSchema, formatLocation, type RecordLocation } from './location.js';
