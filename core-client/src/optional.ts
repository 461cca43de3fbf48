/**
 * `{ [key]: value }` when there is a value, `{}` when not: spread into an object literal, an optional property is
 * absent rather than `undefined` (which `exactOptionalPropertyTypes` refuses). `...optional('journalPath', path)`
 * reads as what it is where `...(path === undefined ? {} : { journalPath: path })` does not. ESLint refuses the
 * conditional written by hand (`eslint.config.js`).
 */
export function optional<Key extends string, Value>(key: Key, value: Value | undefined): { [K in Key]?: Value } {
  return optionalFrom(key, value, (present) => present);
}

/**
 * `{ [key]: make(value) }` when there is a value, `{}` when not: the property is made from the value, as
 * `...optionalFrom('whole', entry.a, parseHex)`, and `make` runs only on a value that is there.
 */
export function optionalFrom<Key extends string, Value, Field>(key: Key, value: Value | undefined, make: (value: Value) => Field): { [K in Key]?: Field } {
  const field: { [K in Key]?: Field } = {};
  if (value !== undefined) field[key] = make(value);
  return field;
}
