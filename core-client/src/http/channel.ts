import type { z } from 'zod';
import { CoreHeaders, REQUEST_CONTENT_TYPE } from '../contract/names.js';
import { Secret } from '../secret.js';
import { DEFAULT_MAX_ANSWER_BYTES, readAnswerBody } from './answer-body.js';
import { DeadlineWatch } from './deadline.js';
import { DEFAULT_MAX_RETRY_AFTER_MS, contractViolation, deadlinePassed, errorFromResponse, errorFromTransport, type ExchangeContext } from './error-mapping.js';
import { Transient, isCoreError } from './errors.js';
import { type RetryOptions, type RetryPolicy, RetryPolicySchema, defaultRetryPolicy, withRetry } from './retry.js';
import { CoreClientConfigError, type CoreTarget, resolveCoreTargets } from './target.js';
import { type Upstream, type UpstreamState, Upstreams } from './upstreams.js';
import { optional } from '../optional.js';

export interface CoreClientOptions {
  /**
   * http(s) address of the core, optionally with a path prefix (e.g. `https://host/core`); or several, for cores that
   * share one database: requests are spread over them (see `Upstreams`), each with its own health.
   */
  baseUrl: string | readonly string[];
  apiKey: Secret;
  tenantId?: string;
  appId?: string;
  /** One deadline per request for the headers and the whole body together (a trickling body included). Default 30 s. */
  requestTimeoutMs?: number;
  /** The longest answer body read; a longer one is a contract violation and its connection is closed. Default 1 MiB. */
  maxAnswerBytes?: number;
  /** The longest `Retry-After` honoured; a longer (or unreadable) one is retried with normal backoff. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Other secrets that must never appear in an error, as the api-key (the vendor scrypt signer key). */
  redact?: readonly (Secret | undefined)[];
  /** Connections per core. Default 64. */
  connections?: number;
  /** Default: retry Transient errors with `defaultRetryPolicy`; `false` turns retrying off. */
  retry?: RetryPolicy | false;
  /** Injectable clock, sleep, randomness and an observer of retries (tests, progress displays). */
  retryHooks?: Pick<RetryOptions, 'random' | 'sleep' | 'now' | 'onRetry'>;
  /** How long an idle connection is kept. Default 10 s. */
  keepAliveTimeoutMs?: number;
  /**
   * Certificates (PEM) of the authorities an `https://` core's certificate may be signed by, instead of the ones Node
   * trusts by default: for a core behind a private authority or a self-signed certificate.
   */
  ca?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Send to this core (its index in `coreUrls`) instead of the one with the fewest requests in flight. */
  core?: number;
  /** Overrides the client's retry setting for this call; `false` lets a caller drive retries and see every 429. */
  retry?: RetryPolicy | false;
}

/** A probe's call: where it goes, and how often it is sent again (a pre-flight waits out push-backs only). */
export type ProbeOptions = Pick<CallOptions, 'signal' | 'core' | 'retry'>;

/** One request as the client means it: the path below the core's base path, and what must never be quoted back. */
export interface Exchange {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  /** Values of this request that must never appear in an error (passwords, password hashes, link codes). */
  secrets?: readonly string[];
  /** Headers besides the key and the content type (`rid: passwordless`). */
  headers?: Readonly<Record<string, string>>;
}

/** What came back: the status, the body as text, and what an error made of it would need. */
export interface Answer {
  status: number;
  contentType: string;
  bodyText: string;
  context: ExchangeContext;
  retryAfter: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECTIONS = 64;
const DEFAULT_KEEP_ALIVE_MS = 10_000;
/** Shorter texts are not redacted: masking every "ab" in a message would garble it and protect nothing. */
const MIN_REDACTED_LENGTH = 4;

function positiveInteger(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new CoreClientConfigError('clientOptionInvalid', undefined, `The ${what} must be a whole number above 0, not ${value}.`);
  }
  return value;
}

/** setTimeout fires at once above this (a signed 32-bit count of milliseconds). */
const MAX_TIMER_MS = 2 ** 31 - 1;

function timerMs(value: number | undefined, fallback: number, what: string): number {
  const ms = positiveInteger(value, fallback, what);
  if (ms > MAX_TIMER_MS)
    throw new CoreClientConfigError(
      'clientOptionInvalid',
      undefined,
      `The ${what} must be at most ${MAX_TIMER_MS} (about 24 days), not ${ms}: a longer timer fires at once.`,
    );
  return ms;
}

function checkRetry(retry: RetryPolicy | false | undefined): RetryPolicy | false {
  if (retry === undefined) return defaultRetryPolicy;
  if (retry === false) return false;
  const result = RetryPolicySchema.safeParse(retry);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new CoreClientConfigError('clientOptionInvalid', undefined, `The retry policy is not valid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}.`);
  }
  return result.data;
}

/**
 * The request/answer plumbing under every call of `CoreClient`: the pools, the one deadline and size limit of every
 * answer, redaction, and the one place a request is sent again.
 */
export class CoreChannel {
  readonly #upstreams: Upstreams;
  readonly #apiKey: Secret;
  readonly targets: readonly CoreTarget[];
  /** Tenant, app and the recipe prefix: the same on every core. */
  readonly target: CoreTarget;
  readonly #timeoutMs: number;
  readonly retryPolicy: RetryPolicy | false;
  readonly #retryHooks: CoreClientOptions['retryHooks'];
  readonly #maxAnswerBytes: number;
  readonly #maxRetryAfterMs: number;
  readonly #alsoRedacted: readonly Secret[];
  readonly #deadlines: DeadlineWatch;

  constructor(options: CoreClientOptions) {
    if (!(options.apiKey instanceof Secret)) {
      throw new CoreClientConfigError('clientOptionInvalid', undefined, 'The api-key must be given as a Secret, so that it can never be printed.');
    }
    this.targets = resolveCoreTargets(options);
    this.target = this.targets[0] as CoreTarget;
    this.#apiKey = options.apiKey;
    this.#timeoutMs = timerMs(options.requestTimeoutMs, DEFAULT_TIMEOUT_MS, 'request timeout (ms)');
    const connections = positiveInteger(options.connections, DEFAULT_CONNECTIONS, 'number of connections');
    const keepAliveTimeout = positiveInteger(options.keepAliveTimeoutMs, DEFAULT_KEEP_ALIVE_MS, 'keep-alive timeout (ms)');
    this.retryPolicy = checkRetry(options.retry);
    this.#retryHooks = options.retryHooks;
    this.#deadlines = new DeadlineWatch(Math.max(10, Math.min(1_000, Math.floor(this.#timeoutMs / 4))));
    this.#maxAnswerBytes = positiveInteger(options.maxAnswerBytes, DEFAULT_MAX_ANSWER_BYTES, 'answer size limit (bytes)');
    this.#maxRetryAfterMs = timerMs(options.maxRetryAfterMs, DEFAULT_MAX_RETRY_AFTER_MS, 'Retry-After cap (ms)');
    this.#alsoRedacted = (options.redact ?? []).filter((secret): secret is Secret => secret instanceof Secret && !secret.isEmpty);
    this.#upstreams = new Upstreams(this.targets, {
      connections,
      pipelining: 1,
      keepAliveTimeout,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
      connect: { timeout: this.#timeoutMs, ...optional('ca', options.ca) },
    });
  }

  /** Requests in flight and sent, and health, of each core. */
  coreStates(): UpstreamState[] {
    return this.#upstreams.states(performance.now());
  }

  async close(): Promise<void> {
    await this.#upstreams.close();
  }

  recipePath(path: string, query?: Record<string, string>): string {
    const search = query === undefined ? '' : `?${new URLSearchParams(query).toString()}`;
    return `${this.target.recipePrefix}${path}${search}`;
  }

  /** Sends the exchange (retried as the call says); a 200 is interpreted, anything else thrown as its core error. */
  async call<T>(exchange: Exchange, options: CallOptions, interpret: (answer: Answer, startedAt: number) => T): Promise<T> {
    return this.#retrying(options, async () => {
      const startedAt = performance.now();
      const answer = await this.#exchange(exchange, options);
      if (answer.status !== 200) throw this.errorOf(answer);
      return interpret(answer, startedAt);
    });
  }

  /** An exchange whose refusal is what the caller reads (a probe): only transient failures are thrown, and retried. */
  async refusal(exchange: Exchange, options: ProbeOptions): Promise<Answer> {
    return this.#retrying(options, async () => {
      const answer = await this.#exchange(exchange, options);
      const error = answer.status === 200 ? undefined : this.errorOf(answer);
      if (error instanceof Transient) throw error;
      return answer;
    });
  }

  /** The core error a non-200 answer stands for. */
  errorOf(answer: Answer) {
    const response = {
      status: answer.status,
      bodyText: answer.bodyText,
      retryAfter: answer.retryAfter,
      nowMs: Date.now(),
      maxRetryAfterMs: this.#maxRetryAfterMs,
    };
    return errorFromResponse(response, answer.context);
  }

  /** The one place a request is sent again: the call's retry setting, else the client's. */
  async #retrying<T>(options: Pick<CallOptions, 'signal' | 'retry'>, once: () => Promise<T>): Promise<T> {
    const policy = options.retry === undefined ? this.retryPolicy : checkRetry(options.retry);
    if (policy === false) return once();
    return withRetry(once, policy, { ...this.#retryHooks, ...optional('signal', options.signal) });
  }

  #redactor(secrets: readonly string[]): (text: string) => string {
    const hidden = [this.#apiKey.reveal(), ...this.#alsoRedacted.map((secret) => secret.reveal()), ...secrets].filter(
      (value) => value.length >= MIN_REDACTED_LENGTH,
    );
    return (text) => hidden.reduce((clean, value) => clean.split(value).join('***'), text);
  }

  async #exchange(exchange: Exchange, options: Pick<CallOptions, 'signal' | 'core'>): Promise<Answer> {
    const { signal } = options;
    const upstream = this.#upstreams.pick(performance.now(), options.core);
    const path = `${upstream.target.basePath}${exchange.path}`;
    const context: ExchangeContext = {
      request: `${exchange.method} ${path}`,
      tenantId: this.target.tenantId,
      appId: this.target.appId,
      redact: this.#redactor(exchange.secrets ?? []),
    };
    const headers: Record<string, string> = { ...exchange.headers };
    if (!this.#apiKey.isEmpty) headers[CoreHeaders.apiKey] = this.#apiKey.reveal();
    if (exchange.body !== undefined) headers[CoreHeaders.contentType] = REQUEST_CONTENT_TYPE;
    // Every call goes through here, so the deadline and the size limit hold for any request this client makes. The
    // headers come within undici's headersTimeout (a whole-wait timeout); the body within what is left of the same
    // deadline, enforced here, because undici's bodyTimeout restarts with every byte and a trickle never trips it.
    const startedAt = performance.now();
    let expired = false;
    let unwatch: (() => void) | undefined;
    upstream.inFlight += 1;
    upstream.requests += 1;
    try {
      const response = await upstream.pool.request({
        method: exchange.method,
        path,
        headers,
        body: exchange.body === undefined ? null : JSON.stringify(exchange.body),
        signal: signal ?? null,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      // A gateway's 502 or 504 says the core behind it could not be reached; any other answer says it could.
      if (response.statusCode === 502 || response.statusCode === 504) this.#upstreams.unreachable(upstream, performance.now());
      else this.#upstreams.answered(upstream);
      unwatch = this.#deadlines.watch(startedAt + this.#timeoutMs, () => {
        expired = true;
        response.body.destroy(new Error(`deadline of ${this.#timeoutMs} ms passed`));
      });
      // Always read the body, even of errors, so the connection goes back to the pool clean (or is closed when too long).
      const body = await readAnswerBody(response.body, headerText(response.headers['content-length']), this.#maxAnswerBytes);
      if (!body.ok) {
        throw contractViolation(
          `the answer is longer than ${sizeText(this.#maxAnswerBytes)}, where every answer of the contract is a few hundred; the rest was not read`,
          context,
          response.statusCode,
        );
      }
      return {
        status: response.statusCode,
        contentType: headerText(response.headers[CoreHeaders.contentType]) ?? '',
        retryAfter: headerText(response.headers[CoreHeaders.retryAfter]),
        bodyText: body.text,
        context,
      };
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason ?? error;
      throw this.#failure(error, expired, upstream, context);
    } finally {
      upstream.inFlight -= 1;
      unwatch?.();
    }
  }

  /** The error for a request that got no usable answer; a core that could not be reached rests (see Upstreams). */
  #failure(error: unknown, expired: boolean, upstream: Upstream, context: ExchangeContext): unknown {
    const located = { ...context, target: upstream.description };
    const mapped = expired ? deadlinePassed(located, this.#timeoutMs) : isCoreError(error) ? error : errorFromTransport(error, located);
    if (mapped instanceof Transient && (mapped.reason === 'network' || mapped.reason === 'timeout')) {
      this.#upstreams.unreachable(upstream, performance.now());
    }
    return mapped;
  }

  /** The body of a 200 as JSON, or a ContractViolation when it is not JSON at all. */
  jsonBody(answer: Answer): unknown {
    if (!answer.contentType.toLowerCase().startsWith('application/json')) {
      throw contractViolation(`expected JSON but got content type "${answer.contentType || '(none)'}"`, answer.context, answer.status);
    }
    try {
      return JSON.parse(answer.bodyText) as unknown;
    } catch {
      throw contractViolation('the body is not valid JSON', answer.context, answer.status);
    }
  }

  conform<S extends z.ZodType>(answer: Answer, schema: S, value: unknown): z.infer<S> {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.length === 0 ? '(body)' : issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw contractViolation(`unexpected body (${issues})`, answer.context, answer.status);
  }

  json<S extends z.ZodType>(answer: Answer, schema: S): z.infer<S> {
    return this.conform(answer, schema, this.jsonBody(answer));
  }
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
