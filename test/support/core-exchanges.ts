import { z } from 'zod';
import { CorePaths, SCRYPT_ALGORITHM_NAMES, type ScryptAlgorithmName, VENDOR_SCRYPT } from '../../core-client/src/contract/names.js';
import { CoreClient, TENANT_PROBE_BODY } from '../../core-client/src/http/core-client.js';
import { Secret } from '../../core-client/src/secret.js';
import { VENDOR_SCRYPT_VECTOR, bcryptHashOf } from '../core-double/known-hashes.js';
import { makeVendorScryptHash } from './vendor-scrypt-maker.js';

/**
 * The exchanges a real core's answers were recorded for (`../shared/spec/core-transcripts/`, kept in
 * test/fixtures/core-transcripts/): the calls core-migrate makes and their refusals, in the order a migration makes
 * them. The double is held to the recordings in `npm test`; `npm run record:core-transcripts` records them again
 * against a live core; the live suite compares the double with a live core step by step.
 */

/** A core's answer as a test reads it: the status code, and the body as JSON (or as text when it is not JSON). */
export interface CoreAnswer {
  status: number;
  contentType: string;
  body: unknown;
  text: string;
}

/** One call with the contract's two headers (the api-key may be left out or changed to test the refusal). */
export async function callCore(
  url: string,
  method: string,
  path: string,
  body: unknown,
  apiKey: string | null,
  extraHeaders: Record<string, string> = {},
): Promise<CoreAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', ...extraHeaders };
  if (apiKey !== null) headers['api-key'] = apiKey;
  const answer = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await answer.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A core's errors are plain text (core-behaviour.md): keep them as they are.
  }
  return { status: answer.status, contentType: answer.headers.get('content-type') ?? '', body: parsed, text };
}

/** An answer as recorded and compared: what differs by nature (ids, times, code handles) is a placeholder. */
export const SeenAnswerSchema = z.object({ status: z.number(), kind: z.enum(['json', 'text']), body: z.unknown() });
export type SeenAnswer = z.infer<typeof SeenAnswerSchema>;

/** One recorded step: its name and method as the exchange list gives them, and the core's answer. */
export const RecordedStepSchema = z.object({ name: z.string(), method: z.enum(['GET', 'POST', 'PUT']), answer: SeenAnswerSchema });
export const TranscriptSchema = z.array(RecordedStepSchema);
export type Transcript = z.infer<typeof TranscriptSchema>;

/** The hashes the exchanges import: made for the signer key of the core they are sent to. */
export interface ExchangeHashes {
  bcrypt: string;
  otherBcrypt: string;
  /** A scrypt-variant hash (`$f_scrypt$…`) made with the core's signer key, and the password it holds. */
  scrypt: { hash: string; password: string };
}

/** Ids a core gave in earlier answers, by the name the exchange gave them (each core gives its own). */
export type Ids = Map<string, string>;

export interface Exchange {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string | ((ids: Ids) => string);
  body?: unknown;
  bodyOf?: (ids: Ids) => unknown;
  apiKey?: string | null;
  /** Headers besides the two of the contract (`rid: passwordless`). */
  headers?: Record<string, string>;
  /** Keep `user.id` (or `token`) of the answer under this name; a code's handles as `<name>.preAuthSessionId` and `<name>.linkCode`. */
  keep?: string;
}

const idOf = (ids: Ids, name: string): string => ids.get(name) ?? `no id kept as ${name}`;
const codeOf = (ids: Ids, name: string): { preAuthSessionId: string; linkCode: string } => ({
  preAuthSessionId: idOf(ids, `${name}.preAuthSessionId`),
  linkCode: idOf(ids, `${name}.linkCode`),
});
const PHONE = '+14155550123';
const RID = { rid: 'passwordless' };

/**
 * The calls core-migrate makes, and their refusals, in the order a migration makes them. The double must answer each
 * as the real core does (status, kind of body, body), ids and times aside.
 */
/** The exchanges' hashes for a live core started with `signerKey` (the vector's password, bcrypt at a small cost). */
export async function exchangeHashesFor(signerKey: string): Promise<ExchangeHashes> {
  const v = VENDOR_SCRYPT_VECTOR;
  const hash = await makeVendorScryptHash({
    password: v.password,
    salt: Buffer.from(v.salt, 'base64'),
    saltSeparator: Buffer.from(v.saltSeparator, 'base64'),
    signerKey: Buffer.from(signerKey, 'base64'),
    memCost: v.memCost,
    rounds: v.rounds,
  });
  return {
    bcrypt: await bcryptHashOf('ann password'),
    otherBcrypt: await bcryptHashOf('another password'),
    scrypt: { hash: `$f_scrypt$${hash}$${v.salt}$m=${v.memCost}$r=${v.rounds}$s=${v.saltSeparator}`, password: v.password },
  };
}

/** The exchanges, with the scrypt variant sent under the name the core takes (the contract's unless told). */
export function coreExchanges(hashes: ExchangeHashes, scryptName: ScryptAlgorithmName = VENDOR_SCRYPT): Exchange[] {
  const { bcrypt: HASH, otherBcrypt: OTHER_HASH, scrypt } = hashes;
  return [
    { name: 'liveness', method: 'GET', path: '/hello', apiKey: null },
    { name: 'no api-key', method: 'GET', path: '/apiversion', apiKey: null },
    { name: 'wrong api-key', method: 'GET', path: '/users/count', apiKey: 'wrong-key-0123456789-abcdef' },
    // The pre-flight's probes (`core-migrate check`): each call with an empty body, which the core refuses before acting.
    { name: 'api versions', method: 'GET', path: '/apiversion' },
    { name: 'probe: sign-in-up', method: 'POST', path: '/recipe/signinup', body: {} },
    { name: 'an empty write in an unknown tenant', method: 'POST', path: '/no-such-tenant/recipe/signinup', body: {} },
    { name: 'probe: tenant', method: 'POST', path: '/recipe/user/passwordhash/import', body: TENANT_PROBE_BODY },
    { name: 'probe: unknown tenant', method: 'POST', path: '/no-such-tenant/recipe/user/passwordhash/import', body: TENANT_PROBE_BODY },
    { name: 'probe: unknown app', method: 'POST', path: '/appid-no-such-app/public/recipe/user/passwordhash/import', body: TENANT_PROBE_BODY },
    { name: 'a read in an unknown tenant', method: 'GET', path: '/no-such-tenant/users/count' },
    {
      name: 'an empty hash in an unknown tenant',
      method: 'POST',
      path: '/no-such-tenant/recipe/user/passwordhash/import',
      body: { email: 'e@example.com', passwordHash: '' },
    },
    {
      name: 'a sign-in-up in an unknown tenant',
      method: 'POST',
      path: '/no-such-tenant/recipe/signinup',
      body: { thirdPartyId: 'google', thirdPartyUserId: 'g-9', email: { id: 'g9@example.com', isVerified: true } },
    },
    { name: 'probe: id mapping', method: 'POST', path: '/recipe/userid/map', body: {} },
    { name: 'probe: verification token', method: 'POST', path: '/recipe/user/email/verify/token', body: {} },
    { name: 'probe: metadata', method: 'PUT', path: '/recipe/user/metadata', body: {} },
    { name: 'probe: lookup', method: 'GET', path: '/recipe/user' },
    { name: 'probe: removal', method: 'POST', path: '/user/remove', body: {} },
    { name: 'probe: role', method: 'PUT', path: '/recipe/role', body: {} },
    { name: 'probe: email change', method: 'PUT', path: '/recipe/user', body: {} },
    { name: 'import bcrypt', method: 'POST', path: '/recipe/user/passwordhash/import', body: { email: ' Ann@Example.com ', passwordHash: HASH }, keep: 'ann' },
    {
      name: 'import again: hash replaced',
      method: 'POST',
      path: '/recipe/user/passwordhash/import',
      body: { email: 'ann@example.com', passwordHash: OTHER_HASH },
    },
    { name: 'import back the first hash', method: 'POST', path: '/recipe/user/passwordhash/import', body: { email: 'ann@example.com', passwordHash: HASH } },
    {
      name: 'import scrypt variant',
      method: 'POST',
      path: '/recipe/user/passwordhash/import',
      body: { email: 'sam@example.com', passwordHash: scrypt.hash, hashingAlgorithm: scryptName },
      keep: 'sam',
    },
    { name: 'import empty hash', method: 'POST', path: '/recipe/user/passwordhash/import', body: { email: 'e@example.com', passwordHash: '' } },
    { name: 'import unknown hash', method: 'POST', path: '/recipe/user/passwordhash/import', body: { email: 'e@example.com', passwordHash: 'plain' } },
    {
      name: 'import unknown algorithm',
      method: 'POST',
      path: '/recipe/user/passwordhash/import',
      body: { email: 'e@example.com', passwordHash: HASH, hashingAlgorithm: 'md5' },
    },
    {
      name: 'import empty algorithm',
      method: 'POST',
      path: '/recipe/user/passwordhash/import',
      body: { email: 'e@example.com', passwordHash: HASH, hashingAlgorithm: '' },
    },
    { name: 'import without email', method: 'POST', path: '/recipe/user/passwordhash/import', body: { passwordHash: HASH } },
    { name: 'import a JSON array', method: 'POST', path: '/recipe/user/passwordhash/import', body: '[]' },
    { name: 'import not JSON', method: 'POST', path: '/recipe/user/passwordhash/import', body: 'not json' },
    { name: 'sign in', method: 'POST', path: '/recipe/signin', body: { email: 'ann@example.com', password: 'ann password' } },
    { name: 'sign in, wrong password', method: 'POST', path: '/recipe/signin', body: { email: 'ann@example.com', password: 'another password' } },
    { name: 'sign in, unknown email', method: 'POST', path: '/recipe/signin', body: { email: 'nobody@example.com', password: 'x' } },
    { name: 'sign in, scrypt variant', method: 'POST', path: '/recipe/signin', body: { email: 'sam@example.com', password: scrypt.password } },
    { name: 'map an id', method: 'POST', path: '/recipe/userid/map', bodyOf: (ids) => ({ superTokensUserId: idOf(ids, 'ann'), externalUserId: 'old-ann' }) },
    { name: 'map it again', method: 'POST', path: '/recipe/userid/map', bodyOf: (ids) => ({ superTokensUserId: idOf(ids, 'ann'), externalUserId: 'old-ann' }) },
    {
      name: 'map it to another id',
      method: 'POST',
      path: '/recipe/userid/map',
      bodyOf: (ids) => ({ superTokensUserId: idOf(ids, 'ann'), externalUserId: 'old-other' }),
    },
    {
      name: 'map another user to a taken id',
      method: 'POST',
      path: '/recipe/userid/map',
      bodyOf: (ids) => ({ superTokensUserId: idOf(ids, 'sam'), externalUserId: 'old-ann' }),
    },
    {
      name: 'map an unknown user',
      method: 'POST',
      path: '/recipe/userid/map',
      body: { superTokensUserId: '00000000-0000-4000-8000-000000000000', externalUserId: 'old-x' },
    },
    { name: 'map to an empty id', method: 'POST', path: '/recipe/userid/map', bodyOf: (ids) => ({ superTokensUserId: idOf(ids, 'sam'), externalUserId: '' }) },
    { name: 'read a mapping', method: 'GET', path: '/recipe/userid/map?userId=old-ann&userIdType=EXTERNAL' },
    { name: 'read a mapping by any id', method: 'GET', path: (ids) => `/recipe/userid/map?userId=${idOf(ids, 'ann')}&userIdType=ANY` },
    { name: 'read no mapping', method: 'GET', path: '/recipe/userid/map?userId=old-nobody&userIdType=EXTERNAL' },
    { name: 'sign in after mapping: the old id', method: 'POST', path: '/recipe/signin', body: { email: 'ann@example.com', password: 'ann password' } },
    {
      name: 'import after mapping: the old id',
      method: 'POST',
      path: '/recipe/user/passwordhash/import',
      body: { email: 'ann@example.com', passwordHash: HASH },
    },
    { name: 'find by email', method: 'GET', path: '/recipe/user?email=ann%40example.com' },
    { name: 'find an unknown email', method: 'GET', path: '/recipe/user?email=nobody%40example.com' },
    {
      name: 'verification token',
      method: 'POST',
      path: '/recipe/user/email/verify/token',
      body: { userId: 'old-ann', email: 'ann@example.com' },
      keep: 'token',
    },
    { name: 'verify with it', method: 'POST', path: '/recipe/user/email/verify', bodyOf: (ids) => ({ method: 'token', token: idOf(ids, 'token') }) },
    { name: 'verify with it again', method: 'POST', path: '/recipe/user/email/verify', bodyOf: (ids) => ({ method: 'token', token: idOf(ids, 'token') }) },
    { name: 'token when verified', method: 'POST', path: '/recipe/user/email/verify/token', body: { userId: 'old-ann', email: 'ann@example.com' } },
    { name: 'is verified', method: 'GET', path: '/recipe/user/email/verify?userId=old-ann&email=ann%40example.com' },
    { name: 'sign in when verified', method: 'POST', path: '/recipe/signin', body: { email: 'ann@example.com', password: 'ann password' } },
    {
      name: 'map with its free text',
      method: 'POST',
      path: '/recipe/userid/map',
      bodyOf: (ids) => ({ superTokensUserId: idOf(ids, 'sam'), externalUserId: 'old-sam', externalUserIdInfo: 'core-migrate: firebase id' }),
    },
    { name: 'read a mapping with its free text', method: 'GET', path: '/recipe/userid/map?userId=old-sam&userIdType=EXTERNAL' },
    { name: 'write metadata', method: 'PUT', path: '/recipe/user/metadata', body: { userId: 'old-ann', metadataUpdate: { displayName: 'Ann', plan: 'pro' } } },
    { name: 'merge metadata', method: 'PUT', path: '/recipe/user/metadata', body: { userId: 'old-ann', metadataUpdate: { plan: null, theme: 'dark' } } },
    { name: 'read metadata', method: 'GET', path: '/recipe/user/metadata?userId=old-ann' },
    { name: 'read no metadata', method: 'GET', path: '/recipe/user/metadata?userId=old-nobody' },
    { name: 'change an email', method: 'PUT', path: '/recipe/user', body: { recipeUserId: 'old-ann', email: 'ann.new@example.com' } },
    { name: 'the new email is not verified', method: 'GET', path: '/recipe/user/email/verify?userId=old-ann&email=ann.new%40example.com' },
    { name: 'sign in with the new email', method: 'POST', path: '/recipe/signin', body: { email: 'ann.new@example.com', password: 'ann password' } },
    { name: 'change to a taken email', method: 'PUT', path: '/recipe/user', body: { recipeUserId: 'old-ann', email: 'sam@example.com' } },
    { name: 'change an unknown user', method: 'PUT', path: '/recipe/user', body: { recipeUserId: 'old-nobody', email: 'x@example.com' } },
    { name: 'unverify', method: 'POST', path: '/recipe/user/email/verify/remove', body: { userId: 'old-ann', email: 'ann.new@example.com' } },
    {
      name: 'sign in up',
      method: 'POST',
      path: '/recipe/signinup',
      body: { thirdPartyId: 'google', thirdPartyUserId: 'g-1', email: { id: 'gus@example.com', isVerified: true } },
    },
    {
      name: 'sign in up again',
      method: 'POST',
      path: '/recipe/signinup',
      body: { thirdPartyId: 'google', thirdPartyUserId: 'g-1', email: { id: 'gus@example.com', isVerified: false } },
    },
    {
      name: 'sign in up, verified as text',
      method: 'POST',
      path: '/recipe/signinup',
      body: { thirdPartyId: 'google', thirdPartyUserId: 'g-2', email: { id: 'gil@example.com', isVerified: 'true' } },
    },
    {
      name: 'sign in up unverified',
      method: 'POST',
      path: '/recipe/signinup',
      body: { thirdPartyId: 'github', thirdPartyUserId: 'h-1', email: { id: 'hal@example.com', isVerified: false } },
      keep: 'hal',
    },
    {
      name: 'sign in up verified later',
      method: 'POST',
      path: '/recipe/signinup',
      body: { thirdPartyId: 'github', thirdPartyUserId: 'h-1', email: { id: 'hal@example.com', isVerified: true } },
    },
    {
      name: 'sign in up with another email',
      method: 'POST',
      path: '/recipe/signinup',
      body: { thirdPartyId: 'github', thirdPartyUserId: 'h-1', email: { id: 'hal2@example.com', isVerified: false } },
    },
    {
      name: 'sign in up back to the verified email',
      method: 'POST',
      path: '/recipe/signinup',
      body: { thirdPartyId: 'github', thirdPartyUserId: 'h-1', email: { id: 'hal@example.com', isVerified: false } },
    },
    {
      name: 'unverify a third-party email',
      method: 'POST',
      path: '/recipe/user/email/verify/remove',
      bodyOf: (ids) => ({ userId: idOf(ids, 'hal'), email: 'hal@example.com' }),
    },
    {
      name: 'sign in up after unverify',
      method: 'POST',
      path: '/recipe/signinup',
      body: { thirdPartyId: 'github', thirdPartyUserId: 'h-1', email: { id: 'hal@example.com', isVerified: false } },
    },
    { name: 'create a role', method: 'PUT', path: '/recipe/role', body: { role: 'admin', permissions: ['read', 'write'] } },
    { name: 'add to a role', method: 'PUT', path: '/recipe/role', body: { role: 'admin', permissions: ['delete'] } },
    { name: 'an empty role', method: 'PUT', path: '/recipe/role', body: { role: '', permissions: [] } },
    { name: "a role's permissions", method: 'GET', path: '/recipe/role/permissions?role=admin' },
    { name: 'roles', method: 'GET', path: '/recipe/roles' },
    { name: 'give a role', method: 'PUT', path: '/recipe/user/role', body: { userId: 'old-ann', role: 'admin' } },
    { name: 'give it again', method: 'PUT', path: '/recipe/user/role', body: { userId: 'old-ann', role: 'admin' } },
    { name: 'give an unknown role', method: 'PUT', path: '/recipe/user/role', body: { userId: 'old-ann', role: 'nobody' } },
    { name: "a user's roles", method: 'GET', path: '/recipe/user/roles?userId=old-ann' },
    { name: "a role's users", method: 'GET', path: '/recipe/role/users?role=admin' },
    { name: "an unknown role's users", method: 'GET', path: '/recipe/role/users?role=nobody' },
    { name: 'take a role', method: 'POST', path: '/recipe/user/role/remove', body: { userId: 'old-ann', role: 'admin' } },
    { name: 'take it again', method: 'POST', path: '/recipe/user/role/remove', body: { userId: 'old-ann', role: 'admin' } },
    { name: 'remove a role', method: 'POST', path: '/recipe/role/remove', body: { role: 'admin' } },
    { name: 'remove it again', method: 'POST', path: '/recipe/role/remove', body: { role: 'admin' } },
    { name: 'change nothing', method: 'PUT', path: '/recipe/user', body: { recipeUserId: 'old-ann' } },
    { name: 'count', method: 'GET', path: '/users/count' },
    { name: 'remove', method: 'POST', path: '/user/remove', body: { userId: 'old-ann' } },
    { name: 'remove an unknown id', method: 'POST', path: '/user/remove', body: { userId: 'old-nobody' } },
    { name: 'count after removal', method: 'GET', path: '/users/count' },
    { name: 'the removed user is gone', method: 'GET', path: '/recipe/user?email=ann.new%40example.com' },
    { name: 'its mapping is gone', method: 'GET', path: '/recipe/userid/map?userId=old-ann&userIdType=EXTERNAL' },
    // Passwordless users (issue 27): the probes, a code consumed at once, a killed run's leftover code, the rid-header change.
    { name: 'probe: passwordless code', method: 'POST', path: '/recipe/signinup/code', body: {} },
    { name: 'probe: users by login', method: 'GET', path: '/users/by-accountinfo' },
    { name: 'a code for both logins', method: 'POST', path: '/recipe/signinup/code', body: { phoneNumber: PHONE, email: 'pl@example.com' } },
    { name: 'a code for a phone number', method: 'POST', path: '/recipe/signinup/code', body: { phoneNumber: PHONE }, keep: 'phoneCode' },
    { name: 'consume it', method: 'POST', path: '/recipe/signinup/code/consume', bodyOf: (ids) => codeOf(ids, 'phoneCode'), keep: 'phoneUser' },
    { name: 'consume it again', method: 'POST', path: '/recipe/signinup/code/consume', bodyOf: (ids) => codeOf(ids, 'phoneCode') },
    { name: 'consume without a code', method: 'POST', path: '/recipe/signinup/code/consume', body: {} },
    { name: 'consume without a link code', method: 'POST', path: '/recipe/signinup/code/consume', body: { preAuthSessionId: 'x' } },
    { name: 'a second code for the number', method: 'POST', path: '/recipe/signinup/code', body: { phoneNumber: PHONE }, keep: 'secondCode' },
    { name: 'consume: the user exists', method: 'POST', path: '/recipe/signinup/code/consume', bodyOf: (ids) => codeOf(ids, 'secondCode') },
    { name: 'a code left behind', method: 'POST', path: '/recipe/signinup/code', body: { phoneNumber: PHONE }, keep: 'leftCode' },
    { name: 'remove the codes of the number', method: 'POST', path: '/recipe/signinup/codes/remove', body: { phoneNumber: PHONE } },
    { name: 'remove codes without a login', method: 'POST', path: '/recipe/signinup/codes/remove', body: {} },
    { name: 'consume a removed code', method: 'POST', path: '/recipe/signinup/code/consume', bodyOf: (ids) => codeOf(ids, 'leftCode') },
    // A consume uses up every code of its login (the real core deletes the login's devices), not only its own.
    { name: 'a first code for a new number', method: 'POST', path: '/recipe/signinup/code', body: { phoneNumber: '+447700900123' }, keep: 'firstOfTwo' },
    { name: 'a second code for it', method: 'POST', path: '/recipe/signinup/code', body: { phoneNumber: '+447700900123' }, keep: 'secondOfTwo' },
    { name: 'consume the first', method: 'POST', path: '/recipe/signinup/code/consume', bodyOf: (ids) => codeOf(ids, 'firstOfTwo'), keep: 'twoCodesUser' },
    { name: 'the second is gone with it', method: 'POST', path: '/recipe/signinup/code/consume', bodyOf: (ids) => codeOf(ids, 'secondOfTwo') },
    { name: 'a number in no format', method: 'POST', path: '/recipe/signinup/code', body: { phoneNumber: '12' }, keep: 'oddCode' },
    { name: 'consume: stored as given', method: 'POST', path: '/recipe/signinup/code/consume', bodyOf: (ids) => codeOf(ids, 'oddCode'), keep: 'oddUser' },
    { name: 'an email-link code', method: 'POST', path: '/recipe/signinup/code', body: { email: ' PL@Example.com ' }, keep: 'emailCode' },
    { name: 'consume: an email user', method: 'POST', path: '/recipe/signinup/code/consume', bodyOf: (ids) => codeOf(ids, 'emailCode') },
    {
      name: 'map the phone user',
      method: 'POST',
      path: '/recipe/userid/map',
      bodyOf: (ids) => ({ superTokensUserId: idOf(ids, 'phoneUser'), externalUserId: 'old-phone' }),
    },
    { name: 'find by the number', method: 'GET', path: `/users/by-accountinfo?phoneNumber=${encodeURIComponent(PHONE)}&doUnionOfAccountInfo=true` },
    { name: 'find by an email', method: 'GET', path: '/users/by-accountinfo?email=pl%40example.com&doUnionOfAccountInfo=true' },
    { name: 'find without the union flag', method: 'GET', path: `/users/by-accountinfo?phoneNumber=${encodeURIComponent(PHONE)}` },
    { name: 'find nobody', method: 'GET', path: '/users/by-accountinfo?phoneNumber=%2B14155550999&doUnionOfAccountInfo=true' },
    { name: 'change the number without rid', method: 'PUT', path: '/recipe/user', body: { recipeUserId: 'old-phone', phoneNumber: '+14155550124' } },
    { name: 'change the number', method: 'PUT', path: '/recipe/user', body: { recipeUserId: 'old-phone', phoneNumber: '+14155550124' }, headers: RID },
    {
      name: "change to another user's number",
      method: 'PUT',
      path: '/recipe/user',
      bodyOf: (ids) => ({ recipeUserId: idOf(ids, 'oddUser'), phoneNumber: '+14155550124' }),
      headers: RID,
    },
    {
      name: 'change an unknown passwordless user',
      method: 'PUT',
      path: '/recipe/user',
      body: { recipeUserId: 'old-nobody', phoneNumber: '+1555' },
      headers: RID,
    },
    {
      name: 'add an email to the phone user',
      method: 'PUT',
      path: '/recipe/user',
      body: { recipeUserId: 'old-phone', email: 'Added@Example.com' },
      headers: RID,
    },
    { name: 'find by the new number', method: 'GET', path: '/users/by-accountinfo?phoneNumber=%2B14155550124&doUnionOfAccountInfo=true' },
    { name: 'remove the phone user', method: 'POST', path: '/user/remove', body: { userId: 'old-phone' } },
    { name: 'the phone user is gone', method: 'GET', path: '/users/by-accountinfo?phoneNumber=%2B14155550124&doUnionOfAccountInfo=true' },
    { name: 'unknown path', method: 'GET', path: '/recipe/nothing' },
    { name: 'wrong method', method: 'GET', path: '/recipe/user/passwordhash/import' },
  ];
}

/** What an answer may carry that a later call needs: a user's id, or a verification token. */
const Keepable = z.looseObject({
  user: z.looseObject({ id: z.string() }).optional(),
  token: z.string().optional(),
  preAuthSessionId: z.string().optional(),
  linkCode: z.string().optional(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMES = new Set(['timeJoined', 'timeCreated']);
/** A passwordless code's handles: random on every core. */
const CODE_HANDLES = new Set(['preAuthSessionId', 'linkCode', 'codeId', 'deviceId', 'userInputCode']);
const UNORDERED = new Set(['versions', 'permissions', 'roles', 'users']);

/** An answer with what differs by nature (a core's own ids, times, tokens) replaced by placeholders. */
function comparable(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return UUID.test(value) ? '<core id>' : key === 'token' || CODE_HANDLES.has(key) ? '<token>' : value;
  if (typeof value === 'number' && TIMES.has(key)) return '<time>';
  // A core lists API versions and a role's permissions in no order it promises.
  if (Array.isArray(value)) {
    const names = value.filter((item): item is string => typeof item === 'string');
    return UNORDERED.has(key) && names.length === value.length ? names.sort() : value.map((item) => comparable(item));
  }
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, comparable(item, name)]));
  return value;
}

export function seen(answer: CoreAnswer): SeenAnswer {
  return { status: answer.status, kind: answer.contentType.startsWith('application/json') ? 'json' : 'text', body: comparable(answer.body) };
}

export async function exchange(url: string, apiKey: string, step: Exchange, ids: Ids): Promise<CoreAnswer> {
  const path = typeof step.path === 'string' ? step.path : step.path(ids);
  const body = step.bodyOf === undefined ? step.body : step.bodyOf(ids);
  const answer = await callCore(url, step.method, path, body, step.apiKey === undefined ? apiKey : step.apiKey, step.headers);
  const kept = Keepable.safeParse(answer.body);
  const value = kept.success ? (kept.data.user?.id ?? kept.data.token) : undefined;
  if (step.keep !== undefined && value !== undefined) ids.set(step.keep, value);
  if (step.keep !== undefined && kept.success && kept.data.preAuthSessionId !== undefined && kept.data.linkCode !== undefined) {
    ids.set(`${step.keep}.preAuthSessionId`, kept.data.preAuthSessionId);
    ids.set(`${step.keep}.linkCode`, kept.data.linkCode);
  }
  return answer;
}

/** Runs every exchange in order against one core and returns what it answered, in the recordings' form. */
export async function recordExchanges(
  url: string,
  apiKey: string,
  hashes: ExchangeHashes,
  scryptName: ScryptAlgorithmName = VENDOR_SCRYPT,
): Promise<Transcript> {
  const ids: Ids = new Map();
  const steps: Transcript = [];
  for (const step of coreExchanges(hashes, scryptName))
    steps.push({ name: step.name, method: step.method, answer: seen(await exchange(url, apiKey, step, ids)) });
  return steps;
}

/** The name a live core takes for the scrypt variant, learnt as the pre-flight learns it (nothing is written). */
export async function scryptNameOf(url: string, apiKey: string): Promise<ScryptAlgorithmName> {
  const client = new CoreClient({ baseUrl: url, apiKey: new Secret(apiKey), retry: false });
  try {
    for (const name of SCRYPT_ALGORITHM_NAMES) if ((await client.probeScryptName(name)).outcome === 'known') return name;
    throw new Error(`${url} knows none of ${SCRYPT_ALGORITHM_NAMES.join(', ')} for the scrypt variant`);
  } finally {
    await client.close();
  }
}

/** The name-probe bodies of `scrypt-names.json`: each name of the scrypt variant, and one no core knows. */
export const SCRYPT_NAME_EXCHANGES = ['vendor_scrypt', 'firebase_scrypt', 'no_such_algorithm'].flatMap((name) => [
  { name: `name probe: ${name}`, body: { email: 'p@x.example', passwordHash: 'x', hashingAlgorithm: name } },
  { name: `empty hash: ${name}`, body: { email: 'p@x.example', passwordHash: '', hashingAlgorithm: name } },
  { name: `no email: ${name}`, body: { passwordHash: 'x', hashingAlgorithm: name } },
]);

/** `scrypt-names.json`: a core reached directly, asked which name of the scrypt variant it takes. */
export const ScryptNamesSchema = z.object({
  core: z.string(),
  exchanges: z.array(
    z.object({ name: z.string(), method: z.literal('POST'), path: z.string(), body: z.record(z.string(), z.unknown()), answer: SeenAnswerSchema }),
  ),
});
export type ScryptNames = z.infer<typeof ScryptNamesSchema>;

/** Sends the name probes to one core and returns them with its answers, in `scrypt-names.json`'s form. */
export async function recordScryptNames(url: string, apiKey: string, core: string): Promise<ScryptNames> {
  const exchanges: ScryptNames['exchanges'] = [];
  for (const step of SCRYPT_NAME_EXCHANGES) {
    const answer = seen(await callCore(url, 'POST', CorePaths.passwordHashImport, step.body, apiKey));
    exchanges.push({ name: step.name, method: 'POST', path: CorePaths.passwordHashImport, body: step.body, answer });
  }
  return { core, exchanges };
}
