import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { VerifierPoolBusy } from '../../hashes/legacy/verifier-pool.js';
import { normaliseEmail } from '../../plan/email.js';
import { optional } from '../../optional.js';
import type { Secret } from '../../secret.js';
import { AttemptLimits, type AttemptResult } from '../attempt-limits.js';
import { clientAddressOf } from '../client-address.js';
import { LoginMigrationAnswerSchema, type LoginMigrationAnswer } from '../login-answer.js';
import { ServiceKeyCheck } from './key-check.js';
import { loggedPath } from './logged-path.js';
import { isBodyRefusal, readMigrateRequest } from './migrate-request.js';
import { sharedReadiness, type ReadinessCheck } from './readiness.js';
import type { ServiceRefusal } from './service-refusal.js';
import { LoginServiceSettingError } from './service-key.js';
import { LoginServiceSettingsSchema, type LoginServiceSettingsInput } from './service-settings.js';

/**
 * What the service asks for each sign-in it admits: `migrateAtLogin` of an open login-time migration (its store,
 * its core), or anything answering the same. It may reject with VerifierPoolBusy when its verifier pool is full.
 */
export type Migrate = (attempt: { email: string; password: Secret }) => Promise<LoginMigrationAnswer>;

/** One line of the service's log per request, bounded whatever is sent: never a password, a hash or an email in clear. */
export interface RequestLogLine {
  time: string;
  method: string;
  /** At most a short, printable prefix of the path (loggedPath): never what a client put in it whole. */
  path: string;
  status: number;
  outcome?: LoginMigrationAnswer['outcome'] | 'refused';
  reason?: string;
  /** A keyed digest of the normalised email (the key is random per process): repeated attempts show, the address does not. */
  email?: string;
  /** The end user's address as the backend named it (clientAddress), else the connecting address; written one way (client-address.ts). */
  client?: string;
  ms: number;
}

export interface LoginServiceOptions {
  settings?: LoginServiceSettingsInput;
  serviceKey: Secret;
  migrate: Migrate;
  log?: (line: RequestLogLine) => void;
  now?: () => number;
  /** What `/health` checks (`loginServiceReadiness`); none: it answers ok while the service listens. */
  readiness?: readonly ReadinessCheck[];
  /** Told once, for the operator, when sign-ins arrive without `clientAddress` (only the per-email limit then applies). */
  notice?: (sentence: string) => void;
}

export interface LoginService {
  url: string;
  /** Stops taking connections, waits up to the grace for sign-ins under way, then closes what is left. */
  close(): Promise<void>;
}

/** How long a busy pool asks the backend to wait, and how long an unexpected failure does. */
const BUSY_RETRY_SECONDS = 1;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

/** What the catch-all answers when the service fails before it can answer: JSON, as every other answer. */
const INTERNAL_ERROR: ServiceRefusal = { code: 'internalError', error: 'the service failed before it could answer; nothing was decided' };

/** What HTTP status a login-time answer travels with: a "try later" for too many attempts is 429, for the rest 503. */
export function answerStatus(answer: LoginMigrationAnswer): 200 | 429 | 503 {
  if (answer.outcome !== 'tryLater') return 200;
  return answer.reason === 'tooManyAttempts' ? 429 : 503;
}

/**
 * What a sign-in's answer counts for: a wrong password and an email that is not waiting (unknown, or migrated and
 * refused by the core) fail alike, so the limits answer an unknown, a migrated and a parked email the same way, and
 * migrated users are bounded too; a "try later" decided nothing.
 */
function attemptResult(answer: LoginMigrationAnswer): AttemptResult {
  if (answer.outcome === 'migrated') return 'matched';
  return answer.outcome === 'tryLater' ? 'undecided' : 'failed';
}

/** A refusal's body, its code checked against the list (a body is otherwise any JSON). */
function refused(code: ServiceRefusal['code'], error: string): ServiceRefusal {
  return { code, error };
}

/** Said once when a sign-in comes without the end user's address. */
const NO_CLIENT_ADDRESS_NOTICE =
  'sign-ins arrive without clientAddress: the limits per client cannot apply, only the one per email ' +
  '(send the end user\'s address as clientAddress: docs/login-time.md, "Attempt limits and the threat model").';

/**
 * `login-migration serve`'s HTTP face: `POST /migrate` with `{email, password}` answers a LoginMigrationAnswer as
 * JSON (200; a "try later" 429 or 503 with Retry-After), `GET /health` answers `{"status":"ok"}` (200) when every
 * readiness check passes, else `{"status":"notReady","reasons":[...]}` (503), shared by a flood of probes. Every
 * /migrate needs `Authorization: Bearer <service key>` (401 otherwise; 429 for an address that sent too many wrong
 * ones). Wrong passwords are bounded per email from a client, per client and per email (AttemptLimits). The password
 * lives in this request only: it is handed to `migrate` as a Secret and never logged, echoed or kept. It rejects
 * with a LoginServiceSettingError (`serviceCannotListen`) when it cannot listen where asked.
 */
export async function startLoginService(options: LoginServiceOptions): Promise<LoginService> {
  const settings = LoginServiceSettingsSchema.parse(options.settings ?? {});
  const limits = new AttemptLimits(settings.limits, options.now);
  const keyCheck = new ServiceKeyCheck(options.serviceKey, options.now);
  const logKey = randomBytes(32);
  const emailDigest = (email: string): string => createHmac('sha256', logKey).update(email).digest('hex').slice(0, 16);
  const log = options.log ?? ((): void => undefined);
  let noticedNoClient = false;
  const underWay = new Set<Promise<void>>();
  const health = sharedReadiness(options.readiness ?? [], { roundEveryMs: settings.healthRoundSeconds * 1000, ...optional('now', options.now) });

  async function migrateSignIn(
    request: IncomingMessage,
    line: Omit<RequestLogLine, 'time' | 'ms'>,
  ): Promise<{ status: number; body: unknown; retryAfter?: number }> {
    const peer = clientAddressOf(request.socket.remoteAddress ?? '');
    if (peer !== undefined) line.client = peer.address;
    const key = keyCheck.check(request, peer?.limitKey);
    if (key.kind !== 'accepted') {
      line.outcome = 'refused';
      if (key.kind === 'tooManyWrongKeys') {
        const words = `too many wrong service keys from this address: try again in ${key.retryAfterSeconds} s`;
        return { status: 429, body: refused('serviceKeyAttemptsExceeded', words), retryAfter: key.retryAfterSeconds };
      }
      return { status: 401, body: refused('serviceKeyRefused', 'missing or wrong service key (Authorization: Bearer <key>)') };
    }
    const read = await readMigrateRequest(request, settings.maxBodyBytes);
    if (isBodyRefusal(read)) {
      line.outcome = 'refused';
      return { status: read.status, body: read.refusal };
    }
    const client = read.clientAddress === undefined ? undefined : clientAddressOf(read.clientAddress);
    if (client !== undefined) line.client = client.address;
    else if (!noticedNoClient) {
      noticedNoClient = true;
      options.notice?.(NO_CLIENT_ADDRESS_NOTICE);
    }
    const email = normaliseEmail(read.email);
    // No user with such an email can have been parked.
    if (!email.ok) return answered({ outcome: 'notWaiting' }, line);
    line.email = emailDigest(email.email);
    const admission = await limits.admit({ email: email.email, client: client?.limitKey });
    if (!admission.admitted) return answered({ outcome: 'tryLater', reason: 'tooManyAttempts', retryAfterSeconds: admission.retryAfterSeconds }, line);
    let answer: LoginMigrationAnswer;
    try {
      answer = await options.migrate({ email: email.email, password: read.password });
    } catch (error) {
      limits.end(admission.ticket, 'undecided');
      if (error instanceof VerifierPoolBusy) return answered({ outcome: 'tryLater', reason: 'busy', retryAfterSeconds: BUSY_RETRY_SECONDS }, line);
      // The error's words might quote what it was given: only its class reaches the log.
      line.reason = error instanceof Error ? error.name : 'unknown';
      return { status: 500, body: refused('migrationFailed', 'the sign-in could not be migrated; nothing was decided'), retryAfter: BUSY_RETRY_SECONDS };
    }
    limits.end(admission.ticket, attemptResult(answer));
    return answered(answer, line);
  }

  function answered(answer: LoginMigrationAnswer, line: Omit<RequestLogLine, 'time' | 'ms'>): { status: number; body: unknown; retryAfter?: number } {
    // Only the answer's own fields leave: whatever else `migrate` put beside them (a hash, a profile) is dropped here.
    const safe = LoginMigrationAnswerSchema.parse(answer);
    line.outcome = safe.outcome;
    if (safe.outcome === 'tryLater') line.reason = safe.reason;
    return { status: answerStatus(safe), body: safe, ...(safe.outcome === 'tryLater' && { retryAfter: safe.retryAfterSeconds }) };
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = performance.now();
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    const line: Omit<RequestLogLine, 'time' | 'ms'> = { method: request.method ?? '', path: loggedPath(request.url), status: 0 };
    let result: { status: number; body: unknown; retryAfter?: number; allow?: string };
    if (path === '/health') {
      if (request.method === 'GET' || request.method === 'HEAD') {
        const answer = await health();
        if (answer.status === 'notReady') line.reason = answer.reasons.join(',');
        result = { status: answer.status === 'ok' ? 200 : 503, body: answer };
      } else result = { status: 405, body: refused('methodNotAllowed', 'use GET'), allow: 'GET, HEAD' };
    } else if (path === '/migrate') {
      result = request.method === 'POST' ? await migrateSignIn(request, line) : { status: 405, body: refused('methodNotAllowed', 'use POST'), allow: 'POST' };
    } else {
      result = { status: 404, body: refused('pathNotFound', 'no such path: the service answers POST /migrate and GET /health') };
    }
    line.status = result.status;
    const headers: Record<string, string> = { ...JSON_HEADERS };
    if (result.retryAfter !== undefined) headers['retry-after'] = String(result.retryAfter);
    if (result.allow !== undefined) headers['allow'] = result.allow;
    if (result.status === 401) headers['www-authenticate'] = 'Bearer realm="login-migration"';
    // A body left unread (refused before or while reading) is not drained: the connection closes after the answer.
    if (!request.readableEnded) headers['connection'] = 'close';
    response.writeHead(result.status, headers);
    response.end(request.method === 'HEAD' ? undefined : `${JSON.stringify(result.body)}\n`);
    log({ time: new Date().toISOString(), ...line, ms: Math.round(performance.now() - started) });
  }

  const server = createServer({ maxHeaderSize: 16 * 1024, requestTimeout: 60_000, headersTimeout: 10_000 }, (request, response) => {
    const handled = route(request, response).catch(() => {
      // Once the head is out, the answer can only be cut short.
      if (response.headersSent) {
        response.end();
        return;
      }
      response.writeHead(500, { ...JSON_HEADERS, connection: 'close' });
      response.end(request.method === 'HEAD' ? undefined : `${JSON.stringify(INTERNAL_ERROR)}\n`);
    });
    const tracked = handled.finally(() => underWay.delete(tracked));
    underWay.add(tracked);
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException): void => {
      const reason = error.code ?? error.name;
      reject(new LoginServiceSettingError('serviceCannotListen', 'port', `cannot listen on ${settings.host}:${settings.port} (${reason})`, { cause: error }));
    };
    server.once('error', refuse);
    server.listen(settings.port, settings.host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the login-time service listens on TCP, not on a pipe');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, settings.shutdownGraceSeconds * 1000);
      });
      await Promise.race([Promise.allSettled([...underWay]), grace]);
      clearTimeout(graceTimer);
      server.closeAllConnections();
      await closed;
    },
  };
}
