import { z } from 'zod';
import { callCore as call } from '../../support/core-exchanges.js';
import { REAL_CORE_API_KEY } from './real-core.js';

export type { CoreAnswer } from '../../support/core-exchanges.js';

/** One call to a live core with the suites' api-key (given as `null` or another key to test a refusal). */
export function callCore(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  apiKey: string | null = REAL_CORE_API_KEY,
  extraHeaders: Record<string, string> = {},
) {
  return call(url, method, path, body, apiKey, extraHeaders);
}

const OkUser = z.looseObject({ id: z.string() });
const SignInAnswer = z.looseObject({ status: z.string(), user: OkUser.optional() });
const CountAnswer = z.looseObject({ status: z.literal('OK'), count: z.number() });
const UserByEmailAnswer = z.looseObject({ status: z.string(), user: OkUser.optional() });
const MappingAnswer = z.looseObject({ status: z.string(), superTokensUserId: z.string().optional() });
const VerifiedAnswer = z.looseObject({ status: z.literal('OK'), isVerified: z.boolean() });
const MetadataAnswer = z.looseObject({ status: z.literal('OK'), metadata: z.record(z.string(), z.unknown()) });

/** A call that must answer 200 with JSON of this shape; anything else fails the test with what the core said. */
async function jsonCall<Shape extends z.ZodType>(url: string, method: string, path: string, shape: Shape, body?: unknown): Promise<z.infer<Shape>> {
  const answer = await callCore(url, method, path, body);
  const parsed = shape.safeParse(answer.body);
  if (answer.status !== 200 || !parsed.success) throw new Error(`${method} ${path} answered ${answer.status} ${answer.text}`);
  return parsed.data;
}

/** `POST /recipe/signin`: the user's id when the password is right, undefined when the core says wrong credentials. */
export async function signIn(url: string, email: string, password: string): Promise<string | undefined> {
  const answer = await jsonCall(url, 'POST', '/recipe/signin', SignInAnswer, { email, password });
  if (answer.status === 'WRONG_CREDENTIALS_ERROR') return undefined;
  if (answer.status !== 'OK' || answer.user === undefined) throw new Error(`sign-in answered ${JSON.stringify(answer)}`);
  return answer.user.id;
}

export async function userCount(url: string): Promise<number> {
  return (await jsonCall(url, 'GET', '/users/count', CountAnswer)).count;
}

/** `GET /recipe/user?email=`: the password user's id, or undefined when the core has none with that email. */
export async function passwordUserIdOf(url: string, email: string): Promise<string | undefined> {
  const answer = await jsonCall(url, 'GET', `/recipe/user?email=${encodeURIComponent(email)}`, UserByEmailAnswer);
  return answer.status === 'UNKNOWN_EMAIL_ERROR' ? undefined : answer.user?.id;
}

/** The core's own id mapped to an old id (`GET /recipe/userid/map`), or undefined when none is. */
export async function coreIdMappedTo(url: string, externalId: string): Promise<string | undefined> {
  const answer = await jsonCall(url, 'GET', `/recipe/userid/map?userId=${encodeURIComponent(externalId)}&userIdType=EXTERNAL`, MappingAnswer);
  return answer.status === 'OK' ? answer.superTokensUserId : undefined;
}

export async function isEmailVerified(url: string, userId: string, email: string): Promise<boolean> {
  const query = `userId=${encodeURIComponent(userId)}&email=${encodeURIComponent(email)}`;
  return (await jsonCall(url, 'GET', `/recipe/user/email/verify?${query}`, VerifiedAnswer)).isVerified;
}

export async function metadataOf(url: string, userId: string): Promise<Record<string, unknown>> {
  return (await jsonCall(url, 'GET', `/recipe/user/metadata?userId=${encodeURIComponent(userId)}`, MetadataAnswer)).metadata;
}
