import type { RecordLocation } from '../../location.js';
import { readJsonArrayItems } from '../json/json-array-items.js';
import { readNdjsonObjects } from '../json/ndjson-objects.js';
import { otherSystemReason } from '../record-systems.js';
import { SourceError } from '../source-error.js';
import type { SourceRecord } from '../source-user.js';
import { splitLines } from '../text/lines.js';
import { openText } from '../text/open-text.js';
import { oktaSourceRecord } from './okta-user.js';

/** One user's value with its place, or why the file could not hand it on. */
type OktaItem = { location: RecordLocation; value: unknown } | { location: RecordLocation; problem: string };

/** The first character that is not white space, or undefined for a file of white space only. */
async function firstCharacter(file: string): Promise<string | undefined> {
  for await (const chunk of openText(file)) {
    const at = chunk.search(/\S/);
    if (at !== -1) return chunk.charAt(at);
  }
  return undefined;
}

/** The pages of the Users API as written: one array, or several one after another, numbered on across them. */
async function* arrayItems(file: string): AsyncGenerator<OktaItem> {
  for await (const item of readJsonArrayItems(file, openText(file), { concatenated: true })) {
    const location = { file, index: item.index };
    yield 'problem' in item ? { location, problem: item.problem } : { location, value: item.value };
  }
}

async function* ndjsonItems(file: string): AsyncGenerator<OktaItem> {
  for await (const entry of readNdjsonObjects(file, splitLines(openText(file), { file }))) {
    const location = { file, line: entry.line };
    yield entry.kind === 'object' ? { location, value: entry.value } : { location, problem: entry.reason };
  }
}

/**
 * Okta's Users API (`GET /api/v1/users`), its pages concatenated: a JSON array, several arrays one after another (as
 * `curl … >> users.json` writes page after page), or one user per line (NDJSON, as `jq -c '.[]'` writes). A first user
 * of another system's shape refuses the file; a later one is refused alone.
 */
export async function* readOkta(file: string): AsyncGenerator<SourceRecord> {
  const start = await firstCharacter(file);
  if (start === undefined) throw new SourceError('empty', { file }, 'the file holds no users (an Okta export is a JSON array of users, or one user per line)');
  let first = true;
  for await (const item of start === '[' ? arrayItems(file) : ndjsonItems(file)) {
    if ('problem' in item) {
      first = false;
      yield { kind: 'malformed', location: item.location, reason: item.problem };
      continue;
    }
    const other = first ? otherSystemReason(item.value, 'Okta') : undefined;
    if (other !== undefined) throw new SourceError('wrong-format', item.location, `not an Okta export: its first user is not one: ${other}`);
    first = false;
    yield oktaSourceRecord(item.value, item.location);
  }
}
