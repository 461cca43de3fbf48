export { sourceFormats, isSourceFormat, type SourceFormat } from './source-format.js';
export {
  SourceError,
  isSourceError,
  sourceErrorKinds,
  formatSourceErrorLocation,
  SourceErrorLocationSchema,
  type SourceErrorKind,
  type SourceErrorLocation,
} from './source-error.js';
export {
  LinkedProviderSchema,
  SourceUserSchema,
  MalformedRecordSchema,
  type LinkedProvider,
  type SourceUser,
  type MalformedRecord,
  type SourceRecord,
} from './source-user.js';
export {
  FieldMappingSchema,
  parseFieldMapping,
  defaultFieldMapping,
  mappedFields,
  type FieldMapping,
  type FieldMappingInput,
  type MappedField,
} from './generic/field-mapping.js';
export { detectFormat } from './detect-format.js';
export { readSource, type OpenSourceOptions } from './read-source.js';
