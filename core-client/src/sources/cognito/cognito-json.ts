import { z } from 'zod';
import { optional } from '../../optional.js';
import { readJsonArrayItems } from '../json/json-array-items.js';
import type { SourceRecord } from '../source-user.js';
import { openText } from '../text/open-text.js';
import { isoTimeOfEpochMs } from '../firebase/epoch-time.js';
import { cognitoSourceUser } from './cognito-user.js';

/**
 * The time as the AWS CLI writes it: ISO 8601 text (CLI v2) kept as exported, or seconds since the epoch as a number
 * (CLI v1, boto3's JSON), made ISO.
 */
const CognitoTimeSchema = z
  .union([z.string(), z.number().nonnegative()])
  .transform((time) => (typeof time === 'string' ? time : isoTimeOfEpochMs(Math.round(time * 1000))));

/** A user in `aws cognito-idp list-users` output (the fields read here; others are ignored). */
export const CognitoListedUserSchema = z.object({
  Username: z.string().min(1),
  Attributes: z.array(z.object({ Name: z.string().min(1), Value: z.string() })).optional(),
  UserCreateDate: CognitoTimeSchema.optional(),
  Enabled: z.boolean().optional(),
  UserStatus: z.string().optional(),
  /** Not in `list-users` itself: the user's groups, as pool backup tools add them (names, or `admin-list-groups-for-user`'s groups). */
  Groups: z.array(z.union([z.string().min(1), z.object({ GroupName: z.string().min(1) }).transform((group) => group.GroupName)])).optional(),
});
export type CognitoListedUser = z.infer<typeof CognitoListedUserSchema>;

function fieldPath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .replace(/^\./, '') || 'user'
  );
}

/** `aws cognito-idp list-users` JSON: `{"Users": [...], "PaginationToken"?}`, streamed one user at a time. */
export async function* readCognitoJson(file: string): AsyncGenerator<SourceRecord> {
  for await (const item of readJsonArrayItems(file, openText(file), { arrayKey: 'Users' })) {
    const { index } = item;
    if ('problem' in item) {
      yield { kind: 'malformed', location: { file, index }, reason: item.problem };
      continue;
    }
    const parsed = CognitoListedUserSchema.safeParse(item.value);
    if (!parsed.success) {
      const field = fieldPath(parsed.error.issues[0]?.path ?? []);
      // zod's messages describe types, never the received value.
      yield { kind: 'malformed', location: { file, index, field }, reason: `field "${field}": ${parsed.error.issues[0]?.message ?? 'invalid'}` };
      continue;
    }
    const user = parsed.data;
    const attributes = new Map<string, string>();
    const positions = new Map<string, number>();
    (user.Attributes ?? []).forEach((attribute, position) => {
      // The first of a name repeated counts, as Cognito never writes one twice.
      if (attributes.has(attribute.Name)) return;
      attributes.set(attribute.Name, attribute.Value);
      positions.set(attribute.Name, position);
    });
    yield cognitoSourceUser(
      {
        username: user.Username,
        attributes,
        fieldOf: (name) => `Attributes[${positions.get(name) ?? 0}]`,
        ...optional('createdAt', user.UserCreateDate),
        ...optional('enabled', user.Enabled),
        ...optional('userStatus', user.UserStatus),
        ...optional('groups', user.Groups),
      },
      { file, index },
    );
  }
}
