/**
 * `{ [key]: value }` when there is a value, `{}` when not: spread into an object literal, an optional property is
 * absent rather than `undefined` (which `exactOptionalPropertyTypes` refuses). `...optional('journalPath', path)`
 * reads as what it is where `...(path === undefined ? {} : { journalPath: path })` does not.
 */
export function optional<Key extends string, Value>(key: Key, value: Value | undefined): { [K in Key]?: Value } {
  const field: { [K in Key]?: Value } = {};
  if (value !== undefined) field[key] = value;
  return field;
}
