import { Problem } from '../problem.js';

/**
 * What can go wrong when talking to the core, as typed values. Each error's message is a sentence an operator
 * can act on; none carries the api-key, a password or a password hash (texts are redacted before they get here).
 * Each is a `Problem` whose `code` says which: a record the core refused is of kind `record` (exit 1), every other
 * one of kind `core` (exit 3), and the setting that fixes it is the core's.
 */

export type CoreErrorCode =
  'authRejected' | 'recordRejected' | 'tenantNotFound' | 'transient' | 'tlsFailed' | 'contractViolation' | 'signerKeyMissing' | 'unexpected';

export interface CoreErrorDetails {
  /** HTTP status, when the core answered at all. */
  status?: number;
  /** e.g. `POST /recipe/signinup` (path only, never headers or body). */
  request?: string;
  cause?: unknown;
}

export abstract class CoreError<Code extends CoreErrorCode = CoreErrorCode> extends Problem<'core', Code> {
  override readonly name: string = this.constructor.name;
  readonly status: number | undefined;
  readonly request: string | undefined;

  constructor(code: Code, message: string, details: CoreErrorDetails = {}) {
    super(code, code === 'recordRejected' ? 'record' : 'core', 'core', message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.request = details.request;
  }
}

export function isCoreError(error: unknown): error is CoreError {
  return error instanceof CoreError;
}

/** 401: the api-key is missing or wrong. Retrying cannot help. */
export class AuthRejected extends CoreError<'authRejected'> {
  constructor(message: string, details: CoreErrorDetails = {}) {
    super('authRejected', message, details);
  }
}

/** 400 for one record: the core's text says why (e.g. `Password hash is in invalid format`). */
export class RecordRejected extends CoreError<'recordRejected'> {
  constructor(
    message: string,
    /** The core's own text, trimmed. */
    readonly coreMessage: string,
    details: CoreErrorDetails = {},
  ) {
    super('recordRejected', message, details);
  }
}

/** 400 `AppId or tenantId not found`: the tenant or app in the path does not exist on this core. */
export class TenantNotFound extends CoreError<'tenantNotFound'> {
  constructor(
    message: string,
    readonly tenantId: string,
    readonly appId: string,
    readonly coreMessage: string,
    details: CoreErrorDetails = {},
  ) {
    super('tenantNotFound', message, details);
  }
}

/** `contention`: a 500 of a store whose lock another write held (STORE_CONTENTION_PATTERN); the core is busy, not broken. */
export type TransientReason = 'network' | 'timeout' | 'rateLimited' | 'serverError' | 'contention';

/** Worth another try later: network error, timeout, 429, or a 5xx other than the signer-key one. */
export class Transient extends CoreError<'transient'> {
  constructor(
    message: string,
    readonly reason: TransientReason,
    /** From the `Retry-After` header (seconds or HTTP-date), when the core sent one. */
    readonly retryAfterMs: number | undefined,
    details: CoreErrorDetails = {},
  ) {
    super('transient', message, details);
  }
}

/** Why a TLS connection to the core could not be made; each asks for its own fix. */
export type TlsFailure = 'notTls' | 'untrustedCertificate' | 'nameMismatch' | 'expiredCertificate' | 'otherTls';

/**
 * No TLS connection could be made (`https://` to a core that speaks plain HTTP, a certificate this client does not
 * trust, made for another name, or out of its dates). Sending again cannot help: the address or the trust must change.
 */
export class TlsFailed extends CoreError<'tlsFailed'> {
  constructor(
    message: string,
    readonly failure: TlsFailure,
    /** The TLS library's code, e.g. `ERR_SSL_WRONG_VERSION_NUMBER` or `DEPTH_ZERO_SELF_SIGNED_CERT`. */
    readonly tlsCode: string,
    details: CoreErrorDetails = {},
  ) {
    super('tlsFailed', message, details);
  }
}

/** A 200 whose body does not match the contract, or a response of an unexpected content type. */
export class ContractViolation extends CoreError<'contractViolation'> {
  constructor(message: string, details: CoreErrorDetails = {}) {
    super('contractViolation', message, details);
  }
}

/** The core cannot import `vendor_scrypt` hashes because it has no signer key configured. */
export class SignerKeyMissing extends CoreError<'signerKeyMissing'> {
  constructor(message: string, details: CoreErrorDetails = {}) {
    super('signerKeyMissing', message, details);
  }
}

/** Any other answer: 402, 403, 405, other statuses, with the core's text. */
export class Unexpected extends CoreError<'unexpected'> {
  constructor(
    message: string,
    readonly coreMessage: string,
    details: CoreErrorDetails = {},
  ) {
    super('unexpected', message, details);
  }
}

/** 404: this core has no such endpoint (code stays `unexpected`; `signIn` uses it to answer `notAvailable`). */
export class NotFound extends Unexpected {}

/** Every concrete core error: `switch (error.code)` on this union narrows to the class. */
export type AnyCoreError = AuthRejected | RecordRejected | TenantNotFound | Transient | TlsFailed | ContractViolation | SignerKeyMissing | Unexpected;
