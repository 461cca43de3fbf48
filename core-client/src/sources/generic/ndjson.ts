import type { SourceRecord } from '../source-user.js';
import { readNdjsonObjects } from '../json/ndjson-objects.js';
import { splitLines } from '../text/lines.js';
import { openText } from '../text/open-text.js';
import type { FieldMapping } from './field-mapping.js';
import { jsonLookup, mapGenericRecord } from './generic-record.js';

/** Generic NDJSON: one user object per line, fields found through the mapping. */
export async function* readNdjson(file: string, mapping: FieldMapping): AsyncGenerator<SourceRecord> {
  for await (const entry of readNdjsonObjects(file, splitLines(openText(file), { file }))) {
    const location = { file, line: entry.line };
    yield entry.kind === 'object' ? mapGenericRecord(jsonLookup(entry.value), mapping, location) : { kind: 'malformed', location, reason: entry.reason };
  }
}
