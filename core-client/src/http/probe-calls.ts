import { CoreErrorTexts, type CorePath, CorePaths, HELLO_BODY, type ScryptAlgorithmName } from '../contract/names.js';
import { ApiVersionAnswerSchema } from '../contract/responses.js';
import type { CallOptions, CoreChannel, Exchange, ProbeOptions } from './channel.js';
import { contractViolation } from './error-mapping.js';
import { type CoreError, NotFound, RecordRejected, Unexpected } from './errors.js';

/** The calls that learn what a core is and offers without writing: liveness, the api-key, the tenant, the scrypt name, a call's presence. */

export type TenantProbeResult = { exists: true; note?: string } | { exists: false; error: CoreError };
/** Whether a core imports the scrypt variant under a name; `unknowable` when the import path is refused outright (403). */
export type ScryptNameProbeResult = { outcome: 'known' | 'unknown' } | { outcome: 'unknowable'; note: string };

/** The tenant probe's import: every field present (a core checks those first), a hash of no family (refused after the tenant is found). */
export const TENANT_PROBE_BODY = { email: 'core-migrate-probe@tenant.invalid', passwordHash: 'core-migrate-probe' } as const;

/** A cheap liveness probe (`GET /hello`, no key needed). */
export async function hello(channel: CoreChannel, options: CallOptions): Promise<{ roundTripMs: number }> {
  const exchange: Exchange = { method: 'GET', path: CorePaths.hello };
  return channel.call(exchange, options, (answer, startedAt) => {
    if (answer.bodyText.trim() !== HELLO_BODY) {
      throw contractViolation(`expected "${HELLO_BODY}" from ${exchange.path}`, answer.context, answer.status);
    }
    return { roundTripMs: performance.now() - startedAt };
  });
}

/** `GET /apiversion`; needs a valid key, so it also proves the key. */
export async function apiVersion(channel: CoreChannel, options: CallOptions): Promise<{ versions: string[] }> {
  const exchange: Exchange = { method: 'GET', path: CorePaths.apiVersion };
  return channel.call(exchange, options, (answer) => ({ versions: [...channel.json(answer, ApiVersionAnswerSchema).versions] }));
}

/**
 * Proves that the tenant (and app) path exists without creating anything: a password import whose hash no core
 * takes (`TENANT_PROBE_BODY`), sent to the tenant's path. A real core checks that the body's fields are there, then
 * finds the tenant, then reads the hash: it answers 400 `AppId or tenantId not found` for an unknown tenant and
 * 400 `Password hash is in invalid format` when the tenant exists. (An empty body is refused before the tenant is
 * looked at, so it proves nothing.) A 403 (the recipe is off for the tenant) also proves the path exists. Network
 * failures are thrown as for every call.
 */
export async function probeTenant(channel: CoreChannel, options: ProbeOptions): Promise<TenantProbeResult> {
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.passwordHashImport), body: TENANT_PROBE_BODY };
  const answer = await channel.refusal(exchange, options);
  const text = answer.bodyText.trim();
  if (answer.status === 400 && text === CoreErrorTexts.invalidPasswordHash) return { exists: true };
  if (answer.status === 200) {
    const error = new Unexpected(
      `The core accepted the password hash "${TENANT_PROBE_BODY.passwordHash}" on ${answer.context.request}, which no authentication core does: check the core address.`,
      text,
      { status: answer.status, request: answer.context.request },
    );
    return { exists: false, error };
  }
  const error = channel.errorOf(answer);
  return answer.status === 403 ? { exists: true, note: error.message } : { exists: false, error };
}

/**
 * Whether the core imports the scrypt variant under `name`, learnt without writing: an import of a hash no core
 * reads, under that name. A real core 10.0.7 answers 400 `Unsupported password hashing algorithm` to a name it does
 * not know, and 400 `Password hash is in invalid … format` to one it knows (core-transcripts/scrypt-names.json). A
 * 403 (the recipe is off for the tenant) tells nothing; any other answer is thrown as its core error.
 */
export async function probeScryptName(channel: CoreChannel, name: ScryptAlgorithmName, options: ProbeOptions): Promise<ScryptNameProbeResult> {
  const body = { ...TENANT_PROBE_BODY, hashingAlgorithm: name };
  const answer = await channel.refusal({ method: 'POST', path: channel.recipePath(CorePaths.passwordHashImport), body }, options);
  const text = answer.bodyText.trim();
  if (answer.status === 400 && text === CoreErrorTexts.unsupportedHashingAlgorithm) return { outcome: 'unknown' };
  if (answer.status === 400 && text.startsWith(CoreErrorTexts.invalidHashPrefix)) return { outcome: 'known' };
  if (answer.status === 200) {
    throw new Unexpected(
      `The core accepted the password hash "${TENANT_PROBE_BODY.passwordHash}" on ${answer.context.request}, which no authentication core does: check the core address.`,
      text,
      { status: answer.status, request: answer.context.request },
    );
  }
  const error = channel.errorOf(answer);
  if (answer.status === 403) return { outcome: 'unknowable', note: error.message };
  throw error;
}

/**
 * Whether the core has a call, learnt without the core doing anything: the call goes out with nothing to act on (an
 * empty JSON object; a read without its query), which a core that has the call refuses with 400 and its sentence,
 * and a core without it answers 404 `Not found` (core-behaviour.md). Push-backs are waited out as the retry policy
 * says; any other answer is thrown as its core error, a 200 to an empty write as `Unexpected` (no core does that).
 */
export async function probeCall(channel: CoreChannel, method: 'GET' | 'POST' | 'PUT', path: CorePath, options: ProbeOptions): Promise<boolean> {
  const exchange: Exchange = { method, path: channel.recipePath(path), ...(method === 'GET' ? {} : { body: {} }) };
  const answer = await channel.refusal(exchange, options);
  if (answer.status === 200) {
    if (method === 'GET') return true;
    throw new Unexpected(
      `The core carried out ${answer.context.request} with an empty body, which no authentication core does: check the core address.`,
      answer.bodyText.trim(),
      { status: answer.status, request: answer.context.request },
    );
  }
  const error = channel.errorOf(answer);
  if (error instanceof RecordRejected) return true;
  // 405: the path is there for another method (a lookup's GET), not for this one: the call is not.
  if (error instanceof NotFound || answer.status === 405) return false;
  throw error;
}
