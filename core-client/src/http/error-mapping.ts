import {
  CoreErrorTexts,
  FIELD_SIGNER_KEY_CONFIG_NAME,
  FIELD_SIGNER_KEY_ENV,
  SIGNER_KEY_ENV,
  SIGNER_KEY_MISSING_PATTERN,
  STORE_CONTENTION_PATTERN,
} from '../contract/names.js';
import {
  AuthRejected,
  ContractViolation,
  type CoreError,
  NotFound,
  RecordRejected,
  SignerKeyMissing,
  TenantNotFound,
  TlsFailed,
  type TlsFailure,
  Transient,
  Unexpected,
} from './errors.js';
import { parseRetryAfterMs } from './retry-after.js';

/** Longest piece of a core's text quoted in a message: enough to act on, short enough for a log line. */
const MAX_QUOTED_CHARS = 500;

export interface ExchangeContext {
  /** e.g. `POST /recipe/signinup`. */
  request: string;
  tenantId: string;
  appId: string;
  /** Removes every secret of this request (api-key, password, password hash) from a text. */
  redact: (text: string) => string;
}

export interface ErrorResponse {
  status: number;
  bodyText: string;
  retryAfter: string | undefined;
  nowMs: number;
  /** The longest Retry-After honoured; a longer one is dropped (normal backoff). Default `DEFAULT_MAX_RETRY_AFTER_MS`. */
  maxRetryAfterMs?: number;
}

/** A core asking for more than this is not waited for: a day-long (or overflowing) wait would freeze the run. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** The core's text as it may be quoted: trimmed, redacted, shortened. */
export function quoteCoreText(text: string, redact: (text: string) => string): string {
  const clean = redact(text.trim());
  return clean.length > MAX_QUOTED_CHARS ? `${clean.slice(0, MAX_QUOTED_CHARS)}…` : clean;
}

/** Turns a non-200 answer into the matching typed error. */
export function errorFromResponse(response: ErrorResponse, context: ExchangeContext): CoreError {
  const { status } = response;
  const coreMessage = quoteCoreText(response.bodyText, context.redact);
  const details = { status, request: context.request };
  const said = coreMessage === '' ? `${status}` : `${status} "${coreMessage}"`;

  if (status === 401) {
    return new AuthRejected(`The core refused the api-key (${said}) on ${context.request}: use a key from the core's API_KEYS setting.`, details);
  }
  if (status === 400 && coreMessage.startsWith(CoreErrorTexts.tenantNotFoundPrefix)) {
    return new TenantNotFound(
      `The core has no app "${context.appId}" with tenant "${context.tenantId}" (${said}): create it on the core or choose an existing tenant/app.`,
      context.tenantId,
      context.appId,
      coreMessage,
      details,
    );
  }
  if (status === 400) {
    return new RecordRejected(`The core rejected the record: ${coreMessage || '(no reason given)'}.`, coreMessage, details);
  }
  if (status === 500 && SIGNER_KEY_MISSING_PATTERN.test(response.bodyText)) {
    return new SignerKeyMissing(
      `The core cannot import vendor_scrypt hashes because it has no signer key: set ${SIGNER_KEY_ENV} on the core ` +
        `(${FIELD_SIGNER_KEY_ENV}, or ${FIELD_SIGNER_KEY_CONFIG_NAME} in config.yaml, on a core in the field; ` +
        "for the infra stack, its `signerKey` secret) to the provider's base64_signer_key, and restart the core.",
      details,
    );
  }
  if (status === 429 || status >= 500) {
    const asked = parseRetryAfterMs(response.retryAfter, response.nowMs);
    const cap = response.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    // Beyond the cap it is a plain transient failure, retried with normal backoff: never a timer past 2^31-1 ms.
    const retryAfterMs = asked !== undefined && asked <= cap ? asked : undefined;
    const contention = status === 500 && STORE_CONTENTION_PATTERN.test(response.bodyText);
    const reason = status === 429 ? 'rateLimited' : contention ? 'contention' : 'serverError';
    const what = status === 429 ? 'The core asked to slow down' : contention ? "The core's store was busy with another write" : 'The core had a server error';
    const wait =
      asked === undefined
        ? ''
        : retryAfterMs === undefined
          ? `; it asked to wait ${secondsText(asked)}, longer than the ${secondsText(cap)} this client waits at most, so it is retried with normal backoff`
          : `; it asked to retry after ${secondsText(retryAfterMs)}`;
    return new Transient(`${what} (${said}) on ${context.request}${wait}.`, reason, retryAfterMs, details);
  }
  const hint = STATUS_HINTS[status] ?? 'an answer this client does not expect';
  const message = `The core answered ${said} to ${context.request}: ${hint}.`;
  return status === 404 ? new NotFound(message, coreMessage, details) : new Unexpected(message, coreMessage, details);
}

function secondsText(ms: number): string {
  return Number.isFinite(ms) ? `${Math.ceil(ms / 1000)}s` : 'forever';
}

const STATUS_HINTS: Readonly<Record<number, string>> = {
  402: 'this feature is not licensed on the core',
  403: `the recipe is disabled for this tenant; enable it on the core`,
  404: 'this core has no such endpoint; check the base URL and its path prefix',
  405: 'this core does not accept that method here; check the base URL',
};

const NETWORK_CODES = new Set([
  'UND_ERR_SOCKET',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'EADDRNOTAVAIL',
  'ENETDOWN',
  'EHOSTDOWN',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** OpenSSL's and Node's codes of a failed TLS handshake, by the fix each asks for; any other `ERR_SSL_`/`ERR_TLS_` is `otherTls`. */
const TLS_FAILURES: Readonly<Record<string, TlsFailure>> = {
  ERR_SSL_WRONG_VERSION_NUMBER: 'notTls',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'notTls',
  ERR_SSL_HTTP_REQUEST: 'notTls',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'untrustedCertificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrustedCertificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrustedCertificate',
  UNABLE_TO_GET_ISSUER_CERT: 'untrustedCertificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrustedCertificate',
  CERT_UNTRUSTED: 'untrustedCertificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'nameMismatch',
  HOSTNAME_MISMATCH: 'nameMismatch',
  CERT_HAS_EXPIRED: 'expiredCertificate',
  CERT_NOT_YET_VALID: 'expiredCertificate',
};

function tlsFailureOf(code: string, message: string): TlsFailure | undefined {
  // Node once reported OpenSSL's failures as EPROTO, with OpenSSL's reason in the message.
  if (code === 'EPROTO') return /wrong version number|packet length too long|http request/i.test(message) ? 'notTls' : 'otherTls';
  return TLS_FAILURES[code] ?? (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code.startsWith('CERT_') ? 'otherTls' : undefined);
}

/**
 * A TLS server closes a plain-HTTP connection without a byte of answer (Node's does; others answer 400): over
 * http://, a connection closed before anything was read may be that, so the sentence says so.
 */
function closedUnanswered(error: unknown, target: string): boolean {
  if (!target.startsWith('http://') || typeof error !== 'object' || error === null || !('socket' in error)) return false;
  const socket = error.socket;
  return typeof socket === 'object' && socket !== null && 'bytesRead' in socket && socket.bytesRead === 0;
}

/** undici's parser could not read the answer as HTTP at all (another protocol on that port). */
function isParserError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'HTTPParserError' || codeOf(error)?.startsWith('HPE_') === true);
}

/** One sentence per TLS failure: the likely cause, then the fix. */
function tlsSentence(failure: TlsFailure, target: string, code: string, detail: string): string {
  switch (failure) {
    case 'notTls':
      return (
        `The core at ${target} does not speak TLS on that port (${code}): it most likely serves plain HTTP, ` +
        'so give its address with http:// instead of https:// (or the port of the TLS proxy in front of it).'
      );
    case 'untrustedCertificate':
      return (
        `The core at ${target} showed a certificate that no authority this machine trusts has signed (${code}: ${detail}): ` +
        "it is self-signed or signed by a private authority; give that authority's certificate (PEM) as the CA file (--ca-file FILE)."
      );
    case 'nameMismatch':
      return (
        `The certificate of the core at ${target} is made for another name (${code}: ${detail}): ` +
        'give the core address with a host name the certificate names, or have a certificate made for this address.'
      );
    case 'expiredCertificate':
      return (
        `The certificate of the core at ${target} is out of its dates (${code}: ${detail}): ` +
        "it has expired (or is not valid yet); renew the core's certificate, or check this machine's clock."
      );
    case 'otherTls':
      return (
        `No TLS connection could be made to the core at ${target} (${code}: ${detail}): ` +
        "check that https:// and the port are the core's TLS ones (http:// for a core that speaks plain HTTP), and its certificate."
      );
  }
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Turns a failure below HTTP into a typed error: a socket reset, refused connection or timeout into a Transient, a
 * failed TLS handshake into a TlsFailed; anything else (a bug, a closed client) comes back as it was.
 */
export function errorFromTransport(error: unknown, context: ExchangeContext & { target: string }): unknown {
  if (isParserError(error)) {
    const detail = context.redact(error instanceof Error ? error.message : String(error)).trim();
    return new ContractViolation(
      `The server at ${context.target} did not answer ${context.request} in HTTP (${detail}): another program listens on that port; ` +
        "check the core's address and port.",
      { request: context.request, cause: error },
    );
  }
  const code = codeOf(error) ?? codeOf(error instanceof Error ? error.cause : undefined);
  if (code === undefined) return error;
  const detail = context.redact(error instanceof Error ? error.message : String(error)).trim();
  const tls = tlsFailureOf(code, detail);
  if (tls !== undefined) {
    return new TlsFailed(tlsSentence(tls, context.target, code, detail), tls, code, { request: context.request, cause: error });
  }
  if (TIMEOUT_CODES.has(code)) {
    return new Transient(`The core at ${context.target} did not answer ${context.request} in time (${code}: ${detail}).`, 'timeout', undefined, {
      request: context.request,
      cause: error,
    });
  }
  if (NETWORK_CODES.has(code)) {
    return new Transient(
      `Could not talk to the core at ${context.target} for ${context.request} (${code}: ${detail}); is it running and reachable?` +
        (closedUnanswered(error, context.target)
          ? ' It closed the connection without answering, as a core that speaks TLS does to plain HTTP: if so, use https://.'
          : ''),
      'network',
      undefined,
      { request: context.request, cause: error },
    );
  }
  return error;
}

/** The request's one deadline (headers and body together) passed: a stalled or trickling answer. */
export function deadlinePassed(context: ExchangeContext & { target: string }, deadlineMs: number): Transient {
  return new Transient(
    `The core at ${context.target} did not finish answering ${context.request} within ${deadlineMs} ms (headers and body together); ` +
      'it is retried, and a resume sends it again.',
    'timeout',
    undefined,
    { request: context.request },
  );
}

export function contractViolation(what: string, context: ExchangeContext, status: number): ContractViolation {
  return new ContractViolation(
    `The core's answer to ${context.request} breaks the contract: ${context.redact(what)}. Is this address really an authentication core?`,
    { status, request: context.request },
  );
}
