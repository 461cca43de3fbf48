import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * `test/fixtures/core-transcripts/sdk-flows.json`: what a real core 10.0.7 answered to the official Node SDK
 * (supertokens-node 21.1.2) in nine flows, per storage, and what each SDK call returned. The double is held to it
 * (test/core-double/sdk-flows.test.ts, test/core-double/supertokens-node.test.ts) with `RecordedPairing`: the values a
 * core makes itself (ids, session handles, key ids, tokens) are paired with those the double made at the same place,
 * so that a value reused in the recording must be reused by the double too, and times are compared by what they mean.
 */

const AnswerSchema = z.object({
  status: z.number(),
  kind: z.enum(['json', 'text']),
  body: z.unknown(),
  cacheControl: z.string().optional(),
});
export type RecordedAnswer = z.infer<typeof AnswerSchema>;

const ExchangeSchema = z.object({
  flow: z.string(),
  step: z.string(),
  method: z.enum(['GET', 'POST', 'PUT']),
  path: z.string(),
  query: z.record(z.string(), z.string()).nullable(),
  cdiVersion: z.string().nullable(),
  /** `<api-key>`, or null where none was sent (the JWKS fetch of the SDK's JWT library). */
  apiKey: z.string().nullable(),
  rid: z.string().optional(),
  body: z.unknown(),
  answer: AnswerSchema,
});
export type RecordedExchange = z.infer<typeof ExchangeSchema>;

const SdkCallSchema = z.object({
  flow: z.string(),
  step: z.string(),
  call: z.string(),
  exchanges: z.number(),
  result: z.unknown().optional(),
  threw: z.object({ type: z.string(), message: z.string() }).optional(),
});
export type RecordedSdkCall = z.infer<typeof SdkCallSchema>;

export const SDK_STORAGES = ['memory', 'postgresql'] as const;
export type SdkStorage = (typeof SDK_STORAGES)[number];

const SdkFlowsSchema = z.object({
  core: z.string(),
  sdk: z.string(),
  cdi: z.string(),
  storages: z.object({ memory: z.array(ExchangeSchema), postgresql: z.array(ExchangeSchema) }),
  sdkCalls: z.object({ memory: z.array(SdkCallSchema), postgresql: z.array(SdkCallSchema) }),
});
export type SdkFlows = z.infer<typeof SdkFlowsSchema>;

export function loadSdkFlows(): SdkFlows {
  return SdkFlowsSchema.parse(JSON.parse(readFileSync(new URL('../fixtures/core-transcripts/sdk-flows.json', import.meta.url), 'utf8')));
}

/** The recording's stand-in for the api-key the SDK sent. */
export const API_KEY_PLACEHOLDER = '<api-key>';

const PASSWORD = /^<password "([^"]+)": (\d+) chars>$/;
/** A password of the length the recording gives, made from its name: the same placeholder is the same password. */
export function passwordFor(placeholder: string): string | undefined {
  const match = PASSWORD.exec(placeholder);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  const length = Number(match[2]);
  const name = `${match[1]}-`;
  return (name + 'p4ssw0rd'.repeat(Math.ceil(length / 8))).slice(0, Math.max(length, name.length + 1));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A core's signing key ids: `d-<creation time>` (dynamic), `s-<uuid>` (static). */
const KEY_ID = /^(d-\d{13}|s-[0-9a-f-]{36})$/;
const TOKEN_PLACEHOLDER = /^<(access token|refresh token|reset token|email verification token) #(\d+): (.*)>$/;

/** The kinds of characters of a token, as the recording writes them: `[A-Z a-z 0-9 +./]`. */
function characterClasses(text: string): string {
  const classes = [/[A-Z]/.test(text) ? 'A-Z' : '', /[a-z]/.test(text) ? 'a-z' : '', /[0-9]/.test(text) ? '0-9' : ''].filter((part) => part !== '');
  const others = [...new Set(text.replace(/[A-Za-z0-9]/g, ''))].sort().join('');
  return `[${[...classes, ...(others === '' ? [] : [others])].join(' ')}]`;
}

/** Whether every character of `text` is of a class the recording's `[A-Z a-z 0-9 +./]` names. */
function withinClasses(text: string, classes: string): boolean {
  const parts = classes.replace(/^\[|\]$/g, '').split(' ');
  const allowed = (char: string): boolean =>
    parts.some((part) => (part.length === 3 && part[1] === '-' ? char >= (part[0] ?? '') && char <= (part[2] ?? '') : part.includes(char)));
  return [...text].every(allowed);
}

function decodeJwtPart(part: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : undefined;
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Pairs what the recording's core made (its ids, handles, key ids and token placeholders) with what the double made at
 * the same place of the same exchange, then speaks either's language: the recorded request in the double's values, the
 * double's answer in the recording's (its tokens described as the recording describes them, numbered by the pairing).
 */
export class RecordedPairing {
  readonly #recordedOf = new Map<string, string>();
  readonly #actualOf = new Map<string, string>();

  #pair(recorded: string, actual: string): void {
    if (this.#actualOf.has(recorded) || this.#recordedOf.has(actual)) return;
    this.#actualOf.set(recorded, actual);
    this.#recordedOf.set(actual, recorded);
  }

  /** Walks a recorded value and the double's at the same place, pairing each value a core makes that neither has paired yet. */
  learn(recorded: unknown, actual: unknown): void {
    if (typeof recorded === 'string' && typeof actual === 'string') {
      const token = TOKEN_PLACEHOLDER.exec(recorded);
      if (token !== null) {
        this.#pair(recorded, actual);
        const recordedKid = /kid ([^;)\s]+)\)/.exec(token[3] ?? '')?.[1];
        const actualKid = decodeJwtPart(actual.split('.')[0])?.['kid'];
        if (recordedKid !== undefined && typeof actualKid === 'string') this.#pair(recordedKid, actualKid);
      } else if (UUID.test(recorded) || KEY_ID.test(recorded)) this.#pair(recorded, actual);
      return;
    }
    if (Array.isArray(recorded) && Array.isArray(actual)) {
      recorded.forEach((item, index) => this.learn(item, actual[index]));
      return;
    }
    if (isRecord(recorded) && isRecord(actual)) for (const [key, item] of Object.entries(recorded)) this.learn(item, actual[key]);
  }

  /** A recorded request's values as the double made them (passwords made from their placeholder). */
  toActual(recorded: unknown): unknown {
    if (typeof recorded === 'string') return this.#actualOf.get(recorded) ?? passwordFor(recorded) ?? recorded;
    if (Array.isArray(recorded)) return recorded.map((item) => this.toActual(item));
    if (isRecord(recorded)) return Object.fromEntries(Object.entries(recorded).map(([key, item]) => [key, this.toActual(item)]));
    return recorded;
  }

  /** The double's value in the recording's terms: paired values as recorded, tokens described as the recording describes them. */
  toRecorded(actual: unknown): unknown {
    if (typeof actual === 'string') {
      const recorded = this.#recordedOf.get(actual);
      const token = recorded === undefined ? undefined : TOKEN_PLACEHOLDER.exec(recorded);
      if (token?.[1] !== undefined) return this.#describeToken(actual, token[1], token[2] ?? '?', token[3] ?? '');
      if (recorded !== undefined) return recorded;
      return actual.split('.').length === 3 && decodeJwtPart(actual.split('.')[0])?.['typ'] === 'JWT'
        ? this.#describeToken(actual, 'access token', '?', '')
        : actual;
    }
    if (Array.isArray(actual)) return actual.map((item) => this.toRecorded(item));
    if (isRecord(actual)) return Object.fromEntries(Object.entries(actual).map(([key, item]) => [key, this.toRecorded(item)]));
    return actual;
  }

  /** A token in the recording's words, its number the pairing's; its characters named as recorded when they are of those kinds. */
  #describeToken(token: string, kind: string, number: string, recordedDetails: string): string {
    if (kind !== 'access token') {
      const recordedClasses = /\[[^\]]*\]$/.exec(recordedDetails)?.[0];
      const classes = recordedClasses !== undefined && withinClasses(token, recordedClasses) ? recordedClasses : characterClasses(token);
      return `<${kind} #${number}: ${token.length} chars ${classes}>`;
    }
    const [headerPart, payloadPart, signature = ''] = token.split('.');
    const header = decodeJwtPart(headerPart) ?? {};
    const claims = Object.keys(decodeJwtPart(payloadPart) ?? {}).join(',');
    const kid = typeof header['kid'] === 'string' ? (this.#recordedOf.get(header['kid']) ?? header['kid']) : 'none';
    const headerFields = Object.keys(header).join(',');
    return `<access token #${number}: JWT ${String(header['alg'])} (header ${headerFields}; kid ${kid}), ${token.length} chars, signature ${signature.length} chars; claims ${claims}>`;
  }
}

/** `max-age` of the JWKS (and the SDK's `validityInSeconds`): the dynamic key's week, less the minute of overlap, less its age. */
const KEY_CACHE_SECONDS = { most: 7 * 24 * 3600 - 60, least: 7 * 24 * 3600 - 60 - 3600 };
const keyCacheSeconds = (seconds: number): string =>
  seconds <= KEY_CACHE_SECONDS.most && seconds > KEY_CACHE_SECONDS.least ? '<a week less a minute, less the key age>' : String(seconds);

const isTime = (value: unknown): value is number => typeof value === 'number' && value >= 1e12 && value < 1e13;

/**
 * What two cores' answers share when they agree: times as `<time>` (an `expiry` as its distance from the
 * `createdTime` or `timeCreated` beside it), RSA moduli by their length, the JWKS cache time by what it means.
 */
export function comparable(value: unknown, key = ''): unknown {
  if (isTime(value)) return '<time>';
  if (typeof value === 'number' && key === 'validityInSeconds') return keyCacheSeconds(value);
  if (typeof value === 'string' && key === 'cacheControl')
    return value.replace(/^max-age=(\d+)/, (_, seconds: string) => `max-age=${keyCacheSeconds(Number(seconds))}`);
  if (Array.isArray(value)) return value.map((item) => comparable(item));
  if (!isRecord(value)) return value;
  const start = isTime(value['createdTime'])
    ? ['createdTime', value['createdTime']]
    : isTime(value['timeCreated'])
      ? ['timeCreated', value['timeCreated']]
      : undefined;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => {
      if (name === 'expiry' && start !== undefined && isTime(item)) return [name, `<${String(start[0])} + ${(item - Number(start[1])) / 1000} s>`];
      if (name === 'n' && value['kty'] === 'RSA' && typeof item === 'string') return [name, `<RSA modulus: ${item.length} chars>`];
      return [name, comparable(item, name)];
    }),
  );
}
