import { readCsvRows } from '../csv/csv-rows.js';
import { readJsonArrayItems } from '../json/json-array-items.js';
import { readNdjsonObjects } from '../json/ndjson-objects.js';
import type { SourceFormat } from '../source-format.js';
import { splitLines } from '../text/lines.js';
import { openText } from '../text/open-text.js';

/** How many records are looked at for their keys: a key that only later records have is typed by hand. */
const SAMPLED_RECORDS = 20;

/**
 * The columns (CSV header) or keys (JSON; one level of nesting as `a.b`) a generic export's records carry, in the
 * order first met, so a field mapping can be chosen from what the file holds. Reads only the first few records.
 */
export async function exportFields(file: string, format: Extract<SourceFormat, 'ndjson' | 'json-array' | 'csv'>): Promise<string[]> {
  const fields = new Set<string>();
  let seen = 0;
  if (format === 'csv') {
    for await (const row of readCsvRows(splitLines(openText(file), { file }))) {
      if (row.kind === 'row') for (const field of row.fields) if (field.trim() !== '') fields.add(field.trim());
      break;
    }
    return [...fields];
  }
  const objects =
    format === 'ndjson'
      ? mapObjects(readNdjsonObjects(file, splitLines(openText(file), { file })), (entry) => (entry.kind === 'object' ? entry.value : undefined))
      : mapObjects(readJsonArrayItems(file, openText(file), {}), (item) => ('value' in item ? item.value : undefined));
  for await (const value of objects) {
    addKeys(fields, value, '');
    seen += 1;
    if (seen >= SAMPLED_RECORDS) break;
  }
  return [...fields];
}

async function* mapObjects<T>(items: AsyncIterable<T>, valueOf: (item: T) => unknown): AsyncGenerator<unknown> {
  for await (const item of items) yield valueOf(item);
}

function addKeys(fields: Set<string>, value: unknown, prefix: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    const name = `${prefix}${key}`;
    if (prefix === '' && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) addKeys(fields, inner, `${name}.`);
    else fields.add(name);
  }
}
