import { z } from 'zod';
import { DEFAULT_APP_ID, SCRYPT_ALGORITHM_NAMES, type ScryptAlgorithmName, VENDOR_SCRYPT } from '../contract/names.js';
import type { CoreClient } from '../http/core-client.js';
import { type CoreError, type CoreErrorCode, isCoreError, Unexpected } from '../http/errors.js';
import type { ProbeOptions } from '../http/channel.js';
import { pushBacksOnly } from '../http/retry.js';
import { optional, optionalFrom } from '../optional.js';

export const PreflightStepNameSchema = z.enum(['reachable', 'keyAccepted', 'tenantExists', 'scryptName']);
export type PreflightStepName = z.infer<typeof PreflightStepNameSchema>;

export const PreflightStepSchema = z.object({
  name: PreflightStepNameSchema,
  status: z.enum(['ok', 'failed', 'skipped']),
  /** What happened, as a sentence; for a failure, what to do. Never holds the api-key. */
  sentence: z.string(),
  /** For a failed step: the kind of the core error behind it. */
  errorKind: z.custom<CoreErrorCode>((value) => typeof value === 'string').optional(),
  /** With several cores: the one this step checked (its base URL). */
  core: z.string().optional(),
  /** The base URL's path, when the step failed because the core does not serve it (see `pathNotServed`). */
  pathNotServed: z.string().optional(),
});
export type PreflightStep = z.infer<typeof PreflightStepSchema>;

export const PreflightReportSchema = z.object({
  ok: z.boolean(),
  /** e.g. `http://127.0.0.1:3567 (tenant public)`. */
  target: z.string(),
  steps: z.array(PreflightStepSchema),
  /** The API versions the core speaks (with several: that every core speaks), oldest first; once the key was accepted. */
  versions: z.array(z.string()).optional(),
  /** The name the core imports the scrypt variant under, once learnt: what a push sends for `vendor_scrypt`. */
  scryptAlgorithm: z.enum(SCRYPT_ALGORITHM_NAMES).optional(),
  /** Round-trip time of `GET /hello`, in milliseconds (with several cores: the slowest). */
  roundTripMs: z.number().optional(),
  /** The first failed step, for a caller that stops on it (a push exits 3 with this sentence). */
  failure: z
    .object({ step: PreflightStepNameSchema, sentence: z.string(), errorKind: z.custom<CoreErrorCode>(), pathNotServed: z.string().optional() })
    .optional(),
});
export type PreflightReport = z.infer<typeof PreflightReportSchema>;

export interface PreflightOptions {
  signal?: AbortSignal;
}

function compareVersions(a: string, b: string): number {
  const partsA = a.split('.').map(Number);
  const partsB = b.split('.').map(Number);
  for (let index = 0; index < Math.max(partsA.length, partsB.length); index += 1) {
    const difference = (partsA[index] ?? 0) - (partsB[index] ?? 0);
    if (difference !== 0 && !Number.isNaN(difference)) return difference;
  }
  return a.localeCompare(b);
}

function failed(name: PreflightStepName, error: CoreError): PreflightStep {
  return { name, status: 'failed', sentence: error.message, errorKind: error.code };
}

/**
 * A core serves its calls at the root of its address and reads a first path segment as a tenant, so at a base URL
 * with a path its root-only calls (`/hello`, `/apiversion`) are answered 404, 405, 403 (a real core 10: "Only public
 * tenantId can call this API") or "tenant not found": then the path is the fault, not what the status means at the
 * right address (a proxy serving the core under a path answers those calls as the core does).
 */
function failedAtPath(name: 'reachable' | 'keyAccepted', error: CoreError, baseUrl: string): PreflightStep {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const explained = error.code === 'tenantNotFound' || (error.status !== undefined && [403, 404, 405].includes(error.status));
  if (path === '' || !explained) return failed(name, error);
  const said = error.status === undefined ? '' : ` (it answered ${error.status} to ${error.request ?? 'the call'})`;
  return {
    ...failed(name, error),
    pathNotServed: path,
    sentence:
      `The core URL ${baseUrl} has a path (${path}) the core does not serve${said}: a core answers at the root of its address and reads a ` +
      `first path segment as a tenant; give its address without the path (${url.origin}), or the path of a proxy that serves the core under it.`,
  };
}

function skipped(name: PreflightStepName, why: string): PreflightStep {
  return { name, status: 'skipped', sentence: why };
}

async function attempt<T>(call: () => Promise<T>): Promise<T | CoreError> {
  try {
    return await call();
  } catch (error) {
    if (isCoreError(error)) return error;
    throw error;
  }
}

interface CoreCheck {
  steps: PreflightStep[];
  roundTripMs?: number;
  versions?: string[];
  scryptAlgorithm?: ScryptAlgorithmName;
}

/**
 * The pre-flight alone: the core answers `/hello` (reachable), `/apiversion` (the key is accepted), the tenant
 * path exists, and which name the core takes for the scrypt variant (the client then sends that name). A step's own failure is reported at once (it is not sent again), but a core that pushes back (429, 503)
 * is waited out as its Retry-After asks, within the client's give-up time; a step after a failure is skipped. Nothing
 * is written: the tenant's probe is a body the core refuses. With several cores each
 * is checked in turn, its steps labelled with it, and the pre-flight passes only when every core passes.
 */
export async function runPreflight(client: CoreClient, options: PreflightOptions = {}): Promise<PreflightReport> {
  const target = client.describe();
  const cores = client.coreUrls;
  const checks: CoreCheck[] = [];
  if (cores.length === 1) checks.push(await checkCore(client, target, undefined, options.signal));
  else {
    for (const [index, url] of cores.entries()) {
      const check = await checkCore(client, url, index, options.signal);
      checks.push({ ...check, steps: check.steps.map((step) => ({ ...step, core: url })) });
    }
  }
  const names = checks.flatMap((check) => (check.scryptAlgorithm === undefined ? [] : [check.scryptAlgorithm]));
  const scryptAlgorithm = names[0];
  if (scryptAlgorithm !== undefined && names.some((name) => name !== scryptAlgorithm)) {
    const last = checks.at(-1)?.steps.at(-1);
    if (last !== undefined) Object.assign(last, disagreeingNames(names));
  }
  if (scryptAlgorithm !== undefined) client.useScryptAlgorithmName(scryptAlgorithm);
  const steps = checks.flatMap((check) => check.steps);
  const failure = steps.find((step) => step.status === 'failed');
  const roundTrips = checks.flatMap((check) => (check.roundTripMs === undefined ? [] : [check.roundTripMs]));
  const versions = checks.every((check) => check.versions !== undefined)
    ? checks.map((check) => check.versions ?? []).reduce((shared, next) => shared.filter((version) => next.includes(version)))
    : undefined;
  return {
    ok: failure === undefined,
    target,
    steps,
    ...optional('versions', versions),
    ...optional('scryptAlgorithm', scryptAlgorithm),
    ...(roundTrips.length === 0 ? {} : { roundTripMs: Math.max(...roundTrips) }),
    ...optionalFrom('failure', failure, (failed) => ({
      step: failed.name,
      sentence: failed.sentence,
      errorKind: failed.errorKind ?? 'unexpected',
      ...optional('pathNotServed', failed.pathNotServed),
    })),
  };
}

async function checkCore(client: CoreClient, target: string, core: number | undefined, signal: AbortSignal | undefined): Promise<CoreCheck> {
  const pinned = { ...optional('signal', signal), ...optional('core', core) };
  const call = { retry: pushBacksOnly(client.retryPolicy), ...pinned };
  const steps: PreflightStep[] = [];
  const afterFailure = 'Not checked, because the step before it failed.';

  const baseUrl = client.coreUrls[core ?? 0] ?? target;
  const hello = await attempt(() => client.hello(call));
  if (isCoreError(hello)) {
    steps.push(
      failedAtPath('reachable', hello, baseUrl),
      ...['keyAccepted' as const, 'tenantExists' as const, 'scryptName' as const].map((name) => skipped(name, afterFailure)),
    );
    return { steps };
  }
  const roundTripMs = Math.round(hello.roundTripMs * 10) / 10;
  steps.push({ name: 'reachable', status: 'ok', sentence: `The core at ${target} answered /hello in ${roundTripMs} ms.` });

  const apiVersion = await attempt(() => client.apiVersion(call));
  if (isCoreError(apiVersion)) {
    steps.push(failedAtPath('keyAccepted', apiVersion, baseUrl), skipped('tenantExists', afterFailure), skipped('scryptName', afterFailure));
    return { steps, roundTripMs };
  }
  const versions = [...apiVersion.versions].sort(compareVersions);
  const newest = versions.at(-1);
  steps.push({
    name: 'keyAccepted',
    status: 'ok',
    sentence: `The api-key is accepted; the core speaks API versions ${versions.join(', ')}${newest === undefined ? '' : ` (newest ${newest})`}.`,
  });

  const { tenantId, appId } = client.scope;
  const tenant = await attempt(() => client.probeTenant(call));
  if (isCoreError(tenant) || !tenant.exists) {
    steps.push(failed('tenantExists', isCoreError(tenant) ? tenant : tenant.error), skipped('scryptName', afterFailure));
    return { steps, roundTripMs, versions };
  }
  const scope = appId === DEFAULT_APP_ID ? `Tenant "${tenantId}"` : `Tenant "${tenantId}" of app "${appId}"`;
  steps.push({ name: 'tenantExists', status: 'ok', sentence: `${scope} exists${tenant.note === undefined ? '.' : `; note: ${tenant.note}`}` });
  const learnt = await learnScryptName(client, call);
  steps.push(learnt.step);
  return { steps, roundTripMs, versions, ...optional('scryptAlgorithm', learnt.name) };
}

/**
 * Which name the core takes for the scrypt variant, the contract's first: a core in the field answers `Unsupported
 * password hashing algorithm` to `vendor_scrypt` and takes `firebase_scrypt`. Nothing is written (the hash is one no
 * core reads).
 */
async function learnScryptName(client: CoreClient, call: ProbeOptions): Promise<{ step: PreflightStep; name?: ScryptAlgorithmName }> {
  for (const name of SCRYPT_ALGORITHM_NAMES) {
    const probe = await attempt(() => client.probeScryptName(name, call));
    if (isCoreError(probe)) return { step: failed('scryptName', probe) };
    if (probe.outcome === 'unknowable')
      return { step: skipped('scryptName', `Not learnt (${probe.note}); scrypt-variant users are sent as ${VENDOR_SCRYPT}.`) };
    if (probe.outcome === 'known') {
      const other = name === VENDOR_SCRYPT ? '' : ` (it does not know the contract's "${VENDOR_SCRYPT}")`;
      return { step: { name: 'scryptName', status: 'ok', sentence: `The core imports the scrypt variant as "${name}"${other}.` }, name };
    }
  }
  const names = SCRYPT_ALGORITHM_NAMES.map((name) => `"${name}"`).join(' nor ');
  const error = new Unexpected(
    `The core knows neither ${names} for the scrypt variant (it answered "Unsupported password hashing algorithm" to both): it cannot import scrypt-variant users; check the core address and version.`,
    'Unsupported password hashing algorithm',
  );
  return { step: failed('scryptName', error) };
}

/** Several cores behind one migration that take different names: the push could send only one. */
function disagreeingNames(names: readonly ScryptAlgorithmName[]): Pick<PreflightStep, 'status' | 'sentence' | 'errorKind'> {
  const distinct = [...new Set(names)].map((name) => `"${name}"`).join(' and ');
  return {
    status: 'failed',
    sentence: `The cores take different names for the scrypt variant (${distinct}): give cores of one version.`,
    errorKind: 'unexpected',
  };
}
