import { readJsonArrayItems } from '../json/json-array-items.js';
import type { SourceRecord } from '../source-user.js';
import { openText } from '../text/open-text.js';
import { oldIdAt } from '../generic/generic-record.js';
import { optional } from '../../optional.js';
import { FirebaseJsonUserSchema, firebaseSourceUser } from './firebase-user.js';

/** Firebase `auth:export` JSON: `{"users": [...]}`, streamed one user at a time. */
export async function* readFirebaseJson(file: string): AsyncGenerator<SourceRecord> {
  for await (const item of readJsonArrayItems(file, openText(file), { arrayKey: 'users' })) {
    const { index } = item;
    if ('problem' in item) {
      yield { kind: 'malformed', location: { file, index }, reason: item.problem };
      continue;
    }
    const parsed = FirebaseJsonUserSchema.safeParse(item.value);
    if (parsed.success) {
      yield firebaseSourceUser(parsed.data, { file, index });
      continue;
    }
    const issue = parsed.error.issues[0];
    const field =
      issue?.path
        .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
        .join('')
        .replace(/^\./, '') || 'user';
    // zod's messages describe types, never the received value, so no hash or salt can leak into the reason.
    yield {
      kind: 'malformed',
      location: { file, index, field },
      ...optional('sourceId', field === 'localId' ? undefined : oldIdAt(item.value, 'localId')),
      reason: `field "${field}": ${issue?.message ?? 'invalid'}`,
    };
  }
}
