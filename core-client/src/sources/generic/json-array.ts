import type { SourceRecord } from '../source-user.js';
import { readJsonArrayItems } from '../json/json-array-items.js';
import { openText } from '../text/open-text.js';
import type { FieldMapping } from './field-mapping.js';
import { isPlainObject, jsonLookup, mapGenericRecord } from './generic-record.js';

/** A JSON array of user objects, streamed element by element; locations are array indexes. */
export async function* readJsonArray(file: string, mapping: FieldMapping): AsyncGenerator<SourceRecord> {
  for await (const item of readJsonArrayItems(file, openText(file), {})) {
    const location = { file, index: item.index };
    if ('problem' in item) yield { kind: 'malformed', location, reason: item.problem };
    else if (isPlainObject(item.value)) yield mapGenericRecord(jsonLookup(item.value), mapping, location);
    else yield { kind: 'malformed', location, reason: 'the array element is not a JSON object' };
  }
}
