import { readCsvRows } from '../csv/csv-rows.js';
import { SourceError } from '../source-error.js';
import type { SourceRecord } from '../source-user.js';
import { splitLines } from '../text/lines.js';
import { openText } from '../text/open-text.js';
import { type FieldMapping, defaultFieldMapping, mappedFields } from './field-mapping.js';
import { mapGenericRecord } from './generic-record.js';

function checkHeader(file: string, header: readonly string[], mapping: FieldMapping): Map<string, number> {
  const columns = new Map<string, number>();
  header.forEach((name, index) => {
    if (!columns.has(name)) columns.set(name, index);
  });
  for (const field of mappedFields) {
    if (mapping[field] !== defaultFieldMapping[field] && !columns.has(mapping[field])) {
      throw new SourceError(
        'bad-mapping',
        { file, line: 1, field: mapping[field] },
        `the mapping names column "${mapping[field]}" for ${field}, but the header row has no such column`,
      );
    }
  }
  if (!mappedFields.some((field) => columns.has(mapping[field]))) {
    throw new SourceError(
      'wrong-format',
      { file, line: 1 },
      `the header row names none of the mapped columns (${mappedFields.map((field) => mapping[field]).join(', ')}): give a field mapping, or is this a header-less Firebase CSV?`,
    );
  }
  return columns;
}

/** CSV with a header row; the mapping says which columns hold which field. */
export async function* readCsv(file: string, mapping: FieldMapping): AsyncGenerator<SourceRecord> {
  let columns: Map<string, number> | undefined;
  let width = 0;
  for await (const row of readCsvRows(splitLines(openText(file), { file }))) {
    if (columns === undefined) {
      if (row.kind === 'row-error') throw new SourceError('wrong-format', { file, line: row.line }, `the header row cannot be read: ${row.reason}`);
      columns = checkHeader(file, row.fields, mapping);
      width = row.fields.length;
      continue;
    }
    const location = { file, line: row.line };
    if (row.kind === 'row-error') {
      yield { kind: 'malformed', location, reason: row.reason };
    } else if (row.fields.length !== width) {
      yield { kind: 'malformed', location, reason: `the row has ${row.fields.length} fields, the header has ${width}` };
    } else {
      const { fields } = row;
      const found = columns;
      yield mapGenericRecord(
        (column) => {
          const index = found.get(column);
          return index === undefined ? undefined : fields[index];
        },
        mapping,
        location,
      );
    }
  }
}
