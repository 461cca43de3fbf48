import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  AuthRejected,
  ContractViolation,
  NotFound,
  RecordRejected,
  SignerKeyMissing,
  TenantNotFound,
  Transient,
  Unexpected,
  isCoreError,
} from '../../../core-client/src/http/errors.js';
import { parseRetryAfterMs } from '../../../core-client/src/http/retry-after.js';
import { errorFromResponse, errorFromTransport, type ExchangeContext } from '../../../core-client/src/http/error-mapping.js';

const SECRET = 'sk-0123456789abcdefghij';
const context: ExchangeContext = {
  request: 'POST /recipe/user/passwordhash/import',
  tenantId: 'public',
  appId: 'public',
  redact: (text) => text.split(SECRET).join('***'),
};
const NOW = Date.parse('2025-01-01T00:00:00Z');

const map = (status: number, bodyText: string, retryAfter?: string) => errorFromResponse({ status, bodyText, retryAfter, nowMs: NOW }, context);

describe('errorFromResponse', () => {
  it('maps 401 to AuthRejected', () => {
    const error = map(401, 'Invalid API key\n');
    expect(error).toBeInstanceOf(AuthRejected);
    expect(error.code).toBe('authRejected');
    expect(error.status).toBe(401);
  });

  it('maps a 400 to RecordRejected carrying the trimmed core text', () => {
    const error = map(400, 'Password hash is in invalid format\n');
    expect(error).toBeInstanceOf(RecordRejected);
    expect((error as RecordRejected).coreMessage).toBe('Password hash is in invalid format');
    expect(error.message).toContain('Password hash is in invalid format');
  });

  it('maps "AppId or tenantId not found" to TenantNotFound', () => {
    const error = map(400, 'AppId or tenantId not found => app public, tenant acme\n');
    expect(error).toBeInstanceOf(TenantNotFound);
    expect(error.code).toBe('tenantNotFound');
  });

  it('maps the signer-key 500 to SignerKeyMissing with what to do', () => {
    const error = map(500, "java.lang.IllegalStateException: 'firebase_password_hashing_signer_key' cannot be null\n");
    expect(error).toBeInstanceOf(SignerKeyMissing);
    expect(error.message).toContain('VENDOR_PASSWORD_HASHING_SIGNER_KEY');
    expect(error.message).toContain('signerKey');
  });

  it.each([429, 500, 502, 503, 504])('maps %i to Transient', (status) => {
    const error = map(status, 'busy\n');
    expect(error).toBeInstanceOf(Transient);
    expect((error as Transient).reason).toBe(status === 429 ? 'rateLimited' : 'serverError');
  });

  it("maps a store's lock conflict (500, `database table is locked`) to a Transient of reason contention, not a server error", () => {
    const locked = map(500, 'java.sql.SQLException: [SQLITE_LOCKED_SHAREDCACHE] Contention with a different database connection (database table is locked)\n');
    expect(locked).toBeInstanceOf(Transient);
    expect((locked as Transient).reason).toBe('contention');
    expect(locked.message).toMatch(/store was busy/);
    for (const text of ['ERROR: deadlock detected', 'ERROR: could not serialize access due to concurrent update', 'SQLITE_BUSY: database is locked']) {
      expect((map(500, text) as Transient).reason).toBe('contention');
    }
    expect((map(502, 'database table is locked') as Transient).reason).toBe('serverError');
  });

  it('reads Retry-After as seconds or as an HTTP-date', () => {
    expect((map(429, '', '7') as Transient).retryAfterMs).toBe(7_000);
    expect((map(503, '', 'Wed, 01 Jan 2025 00:00:30 GMT') as Transient).retryAfterMs).toBe(30_000);
    expect((map(503, '', 'soon') as Transient).retryAfterMs).toBeUndefined();
    expect(parseRetryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfterMs(undefined, NOW)).toBeUndefined();
  });

  it('maps 402/403/405 to Unexpected and 404 to NotFound, all of code "unexpected"', () => {
    for (const status of [402, 403, 405, 418]) {
      const error = map(status, 'Email password login not enabled for tenant\n');
      expect(error).toBeInstanceOf(Unexpected);
      expect(error).not.toBeInstanceOf(NotFound);
      expect(error.code).toBe('unexpected');
      expect(error.message).toContain(String(status));
    }
    const notFound = map(404, 'Not found\n');
    expect(notFound).toBeInstanceOf(NotFound);
    expect(notFound.code).toBe('unexpected');
    expect(notFound.message).toMatch(/base URL/);
  });

  it('redacts secrets from quoted core text and shortens long texts', () => {
    const error = map(500, `boom while using ${SECRET} ${'x'.repeat(2_000)}`);
    expect(error.message).not.toContain(SECRET);
    expect(inspect(error)).not.toContain(SECRET);
    expect(error.message.length).toBeLessThan(800);
  });

  it('errors are CoreErrors, other values are not', () => {
    expect(isCoreError(map(401, ''))).toBe(true);
    expect(isCoreError(new ContractViolation('x'))).toBe(true);
    expect(isCoreError(new Error('x'))).toBe(false);
    expect(isCoreError('401')).toBe(false);
  });
});

describe('errorFromTransport', () => {
  const transportContext = { ...context, target: 'http://127.0.0.1:1 (tenant public)' };
  const withCode = (code: string) => Object.assign(new Error(`failed ${SECRET}`), { code });

  it.each(['UND_ERR_SOCKET', 'ECONNRESET', 'ECONNREFUSED'])('maps %s to a network Transient', (code) => {
    const error = errorFromTransport(withCode(code), transportContext);
    expect(error).toBeInstanceOf(Transient);
    expect((error as Transient).reason).toBe('network');
    expect((error as Transient).message).not.toContain(SECRET);
  });

  it.each(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'])('maps %s to a timeout Transient', (code) => {
    const error = errorFromTransport(withCode(code), transportContext);
    expect((error as Transient).reason).toBe('timeout');
  });

  it('leaves other errors as they were', () => {
    const bug = new TypeError('not a function');
    expect(errorFromTransport(bug, transportContext)).toBe(bug);
    const closed = withCode('UND_ERR_CLOSED');
    expect(errorFromTransport(closed, transportContext)).toBe(closed);
  });
});
