/**
 * What can go wrong when talking to the core, as typed values. Each error's message is a sentence an operator
 * can act on; none carries the api-key, a password or a password hash (texts are redacted before they get here).
 */

export type CoreErrorKind =
  'authRejected' | 'recordRejected' | 'tenantNotFound' | 'transient' | 'tlsFailed' | 'contractViolation' | 'signerKeyMissing' | 'unexpected';

export interface CoreErrorDetails {
  /** HTTP status, when the core answered at all. */
  status?: number;
  /** e.g. `POST /recipe/signinup` (path only, never headers or body). */
  request?: string;
  cause?: unknown;
}

export abstract class CoreError extends Error {
  abstract readonly kind: CoreErrorKind;
  readonly status: number | undefined;
  readonly request: string | undefined;

  constructor(message: string, details: CoreErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.request = details.request;
  }
}

export function isCoreError(error: unknown): error is CoreError {
  return error instanceof CoreError;
}

/** 401: the api-key is missing or wrong. Retrying cannot help. */
export class AuthRejected extends CoreError {
  readonly kind = 'authRejected' as const;
}

/** 400 for one record: the core's text says why (e.g. `Password hash is in invalid format`). */
export class RecordRejected extends CoreError {
  readonly kind = 'recordRejected' as const;
  constructor(
    message: string,
    /** The core's own text, trimmed. */
    readonly coreMessage: string,
    details: CoreErrorDetails = {},
  ) {
    super(message, details);
  }
}

/** 400 `AppId or tenantId not found`: the tenant or app in the path does not exist on this core. */
export class TenantNotFound extends CoreError {
  readonly kind = 'tenantNotFound' as const;
  constructor(
    message: string,
    readonly tenantId: string,
    readonly appId: string,
    readonly coreMessage: string,
    details: CoreErrorDetails = {},
  ) {
    super(message, details);
  }
}

/** `contention`: a 500 of a store whose lock another write held (STORE_CONTENTION_PATTERN); the core is busy, not broken. */
export type TransientReason = 'network' | 'timeout' | 'rateLimited' | 'serverError' | 'contention';

/** Worth another try later: network error, timeout, 429, or a 5xx other than the signer-key one. */
export class Transient extends CoreError {
  readonly kind = 'transient' as const;
  constructor(
    message: string,
    readonly reason: TransientReason,
    /** From the `Retry-After` header (seconds or HTTP-date), when the core sent one. */
    readonly retryAfterMs: number | undefined,
    details: CoreErrorDetails = {},
  ) {
    super(message, details);
  }
}

/** Why a TLS connection to the core could not be made; each asks for its own fix. */
export type TlsFailure = 'notTls' | 'untrustedCertificate' | 'nameMismatch' | 'expiredCertificate' | 'otherTls';

/**
 * No TLS connection could be made (`https://` to a core that speaks plain HTTP, a certificate this client does not
 * trust, made for another name, or out of its dates). Sending again cannot help: the address or the trust must change.
 */
export class TlsFailed extends CoreError {
  readonly kind = 'tlsFailed' as const;
  constructor(
    message: string,
    readonly failure: TlsFailure,
    /** The TLS library's code, e.g. `ERR_SSL_WRONG_VERSION_NUMBER` or `DEPTH_ZERO_SELF_SIGNED_CERT`. */
    readonly code: string,
    details: CoreErrorDetails = {},
  ) {
    super(message, details);
  }
}

/** A 200 whose body does not match the contract, or a response of an unexpected content type. */
export class ContractViolation extends CoreError {
  readonly kind = 'contractViolation' as const;
}

/** The core cannot import `vendor_scrypt` hashes because it has no signer key configured. */
export class SignerKeyMissing extends CoreError {
  readonly kind = 'signerKeyMissing' as const;
}

/** Any other answer: 402, 403, 405, other statuses, with the core's text. */
export class Unexpected extends CoreError {
  readonly kind = 'unexpected' as const;
  constructor(
    message: string,
    readonly coreMessage: string,
    details: CoreErrorDetails = {},
  ) {
    super(message, details);
  }
}

/** 404: this core has no such endpoint (kind stays `unexpected`; `signIn` uses it to answer `notAvailable`). */
export class NotFound extends Unexpected {}

/** Every concrete core error: `switch (error.kind)` on this union narrows to the class. */
export type AnyCoreError = AuthRejected | RecordRejected | TenantNotFound | Transient | TlsFailed | ContractViolation | SignerKeyMissing | Unexpected;
