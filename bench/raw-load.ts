import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { CoreHeaders, CorePaths, CoreStatus, REQUEST_CONTENT_TYPE } from '../core-client/src/contract/names.js';
import {
  EmailVerifyTokenAnswerSchema,
  PasswordHashImportAnswerSchema,
  PasswordlessCodeAnswerSchema,
  PasswordlessConsumeAnswerSchema,
  SignUpAnswerSchema,
} from '../core-client/src/contract/responses.js';
import { MAX_CODES_PER_CREATION } from '../core-client/src/push/user-steps.js';

/** What the raw load waits before sending a 500 again. */
export const LOCKED_RETRY_MS = 20;

/**
 * What a user costs the raw load: `lookup` then the import (a default push), or the identity steps as well;
 * `passwordless`: a phone user, found by its number first, then a code made and consumed at once; `signUp`: what a
 * login-time migration sends at a user's first sign-in, the creation from a plain password (the core hashes it)
 * then the identity steps.
 */
export type RawUserSteps = 'import' | 'lookup' | 'identity' | 'passwordless' | 'signUp';

export interface RawLoadFigures {
  perSecond: number;
  /** Users a second from `countFromMs` on (the whole figure's when the load has no such mark). */
  settledPerSecond: number;
  users: number;
  /** Phone users not made: every code the push would make for one was used up by a consume that lost the lock. */
  failed: number;
  /** Write requests sent (each sending of a write counted) and how many of them answered 500. */
  writes: number;
  locked: number;
  /** Mean milliseconds of a write that answered 500, of one that answered 200, and of a read (the lookup). */
  lockedMs: number;
  writtenMs: number;
  readMs: number;
}

export function userEmail(tag: string, index: number): string {
  return `${tag}-user${index}@example.com`;
}

/** A phone number of its own for each batch and user (the core stores a number as given: no country's rules apply). */
export function benchPhoneNumber(tag: string, index: number): string {
  return `+9${tag.replace(/\D/g, '')}${String(index).padStart(7, '0')}`;
}

/** The plain password each `signUp` user is created with (the login-time bench signs its parked users in with it). */
export const BENCH_SIGN_UP_PASSWORD = 'bench-sign-in-password';

export function bcryptHash(index: number): string {
  return `$2a$10$${String(index).padStart(53, 'N')}`;
}

const UserIdSchema = PasswordHashImportAnswerSchema.transform((answer) => answer.user.id);
const SignedUpIdSchema = SignUpAnswerSchema.transform((answer) => (answer.status === CoreStatus.ok ? answer.user.id : undefined));
const CodeSchema = PasswordlessCodeAnswerSchema.transform(({ preAuthSessionId, linkCode }) => ({ preAuthSessionId, linkCode }));
/** Whether a consume made or found the user: a consume that lost the lock after using its code up is retried into RESTART_FLOW_ERROR. */
const ConsumedSchema = PasswordlessConsumeAnswerSchema.transform((answer) => answer.status === CoreStatus.ok);
const TokenSchema = EmailVerifyTokenAnswerSchema.transform((answer) => ('token' in answer ? answer.token : undefined));

/**
 * The raw load: `inFlight` workers over one keep-alive pool, each user's requests one after another, bodies built
 * before the clock starts, a 500 sent again after 20 ms. `identity`: the lookup and import, then the id mapping, the
 * verification token and its use, and the metadata (what a push with the identity steps sends a user); `signUp`: the
 * same identity steps after a sign-up instead of the lookup and import, the user named by its old id once mapped
 * (as `migrateAtLogin` names it). Runs `users`
 * users or for `ms`. Also counts the writes and their 500s, and times both kinds of answer (the locking model's
 * calibration).
 */
export async function rawLoad(
  url: string,
  apiKey: string,
  tag: string,
  inFlight: number,
  load: { users?: number; ms?: number; steps: RawUserSteps; countFromMs?: number },
): Promise<RawLoadFigures> {
  const headers = { [CoreHeaders.apiKey]: apiKey, [CoreHeaders.contentType]: REQUEST_CONTENT_TYPE };
  const planned = load.users ?? 100_000;
  const bodies = Array.from({ length: planned }, (_, index) => ({
    email: userEmail(tag, index),
    lookup: `${CorePaths.userByEmail}?email=${encodeURIComponent(userEmail(tag, index))}`,
    body: JSON.stringify({ email: userEmail(tag, index), passwordHash: bcryptHash(index) }),
    phoneLookup: `${CorePaths.usersByAccountInfo}?phoneNumber=${encodeURIComponent(benchPhoneNumber(tag, index))}&doUnionOfAccountInfo=true`,
    codeBody: JSON.stringify({ phoneNumber: benchPhoneNumber(tag, index) }),
    signUpBody: JSON.stringify({ email: userEmail(tag, index), password: BENCH_SIGN_UP_PASSWORD }),
  }));
  const pool = new Pool(url, { connections: inFlight, pipelining: 1 });
  const figures = { writes: 0, locked: 0, lockedMsSum: 0, writtenMsSum: 0, reads: 0, readMsSum: 0 };
  const send = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: string): Promise<string> => {
    for (;;) {
      const sentAt = performance.now();
      const response = await pool.request({ method, path, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.body.text();
      const took = performance.now() - sentAt;
      if (response.statusCode !== 200 && response.statusCode !== 500) throw new Error(`raw load: ${method} ${path} answered ${response.statusCode}`);
      if (method === 'GET') {
        figures.reads += 1;
        figures.readMsSum += took;
      } else {
        figures.writes += 1;
        if (response.statusCode === 200) figures.writtenMsSum += took;
        else {
          figures.locked += 1;
          figures.lockedMsSum += took;
        }
      }
      if (response.statusCode === 200) return text;
      await sleep(LOCKED_RETRY_MS);
    }
  };
  // What the push and the login-time migration send (user-steps.ts, arrival-steps.ts): once mapped, a user is named
  // by its old id, which the core resolves on every call, and its metadata says where it came from.
  const identitySteps = async (email: string, coreUserId: string): Promise<void> => {
    const oldId = `old-${email}`;
    await send(
      'POST',
      CorePaths.userIdMap,
      JSON.stringify({ superTokensUserId: coreUserId, externalUserId: oldId, externalUserIdInfo: 'core-migrate: bench id' }),
    );
    const token = TokenSchema.parse(JSON.parse(await send('POST', CorePaths.emailVerifyToken, JSON.stringify({ userId: oldId, email }))));
    if (token !== undefined) await send('POST', CorePaths.emailVerify, JSON.stringify({ method: 'token', token }));
    const metadataUpdate = { displayName: email, migratedFrom: { system: 'bench', sourceId: oldId } };
    await send('PUT', CorePaths.userMetadata, JSON.stringify({ userId: oldId, metadataUpdate }));
  };
  const started = performance.now();
  const deadline = load.ms === undefined ? Number.POSITIVE_INFINITY : started + load.ms;
  let next = 0;
  let done = 0;
  let failed = 0;
  let mark = { at: started, done: 0 };
  const marking = load.countFromMs === undefined ? undefined : setTimeout(() => (mark = { at: performance.now(), done }), load.countFromMs);
  const worker = async (): Promise<void> => {
    for (let index = next++; index < planned && performance.now() < deadline; index = next++) {
      const user = bodies[index];
      if (user === undefined) return;
      if (load.steps === 'passwordless') {
        await send('GET', user.phoneLookup);
        // As the push does (and as many times at most): a consume that answers RESTART_FLOW_ERROR (its code used up
        // by an attempt that lost the lock) made no user, and a fresh code follows. Counted as done before, it had the
        // raw load claim users the core did not have (8% to 9% of them on a store holding 20,000 users at 8 in flight).
        let consumed = false;
        for (let made = 0; !consumed && made < MAX_CODES_PER_CREATION; made += 1) {
          const code = CodeSchema.parse(JSON.parse(await send('POST', CorePaths.passwordlessCode, user.codeBody)));
          consumed = ConsumedSchema.parse(JSON.parse(await send('POST', CorePaths.passwordlessConsume, JSON.stringify(code))));
        }
        if (consumed) done += 1;
        else failed += 1;
        continue;
      }
      if (load.steps === 'signUp') {
        const userId = SignedUpIdSchema.parse(JSON.parse(await send('POST', CorePaths.signUp, user.signUpBody)));
        if (userId === undefined) throw new Error('raw load: a sign-up found its email taken');
        await identitySteps(user.email, userId);
        done += 1;
        continue;
      }
      if (load.steps !== 'import') await send('GET', user.lookup);
      const imported = await send('POST', CorePaths.passwordHashImport, user.body);
      if (load.steps === 'identity') await identitySteps(user.email, UserIdSchema.parse(JSON.parse(imported)));
      done += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: inFlight }, worker));
  } finally {
    clearTimeout(marking);
    await pool.close();
  }
  const ended = performance.now();
  const written = figures.writes - figures.locked;
  return {
    perSecond: done / ((ended - started) / 1000),
    settledPerSecond: (done - mark.done) / ((ended - mark.at) / 1000),
    users: done,
    failed,
    writes: figures.writes,
    locked: figures.locked,
    lockedMs: figures.locked === 0 ? Number.NaN : figures.lockedMsSum / figures.locked,
    writtenMs: written === 0 ? Number.NaN : figures.writtenMsSum / written,
    readMs: figures.reads === 0 ? Number.NaN : figures.readMsSum / figures.reads,
  };
}
