import { z } from 'zod';

/**
 * Why the service refused a request, one stable code each, as undici's `UND_ERR_*` or fastify's `FST_ERR_*`: a client
 * branches on the code, never on the sentence beside it, which may be reworded. docs/login-time.md lists them.
 */
export const ServiceRefusalCodeSchema = z.enum([
  /** 401: no `Authorization: Bearer <key>`, or not the service's key. */
  'serviceKeyRefused',
  /** 429: too many wrong service keys from this connecting address; its key is not looked at until `Retry-After`. */
  'serviceKeyAttemptsExceeded',
  /** 415: the body is not `application/json`. */
  'contentTypeRefused',
  /** 415: a charset other than UTF-8. */
  'charsetRefused',
  /** 413: the body is larger than the service reads. */
  'bodyTooLarge',
  /** 400: the body is not valid UTF-8. */
  'bodyNotUtf8',
  /** 400: the body is not JSON. */
  'bodyNotJson',
  /** 400: JSON, but not `{email, password, clientAddress?}` (unknown fields included). */
  'bodyShapeInvalid',
  /** 405: the path takes another method (the `Allow` header says which). */
  'methodNotAllowed',
  /** 404: the service answers only `POST /migrate` and `GET /health`. */
  'pathNotFound',
  /** 500: the migration of this sign-in failed unexpectedly; nothing was decided (Retry-After). */
  'migrationFailed',
  /** 500: the service failed before it could answer. */
  'internalError',
]);
export type ServiceRefusalCode = z.infer<typeof ServiceRefusalCodeSchema>;

/** A refusal's body: its code, and `error`, a sentence for a person that names fields and limits, never a value sent. */
export const ServiceRefusalSchema = z.object({ code: ServiceRefusalCodeSchema, error: z.string() });
export type ServiceRefusal = z.infer<typeof ServiceRefusalSchema>;
