import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  DEFAULT_APP_ID,
  DEFAULT_TENANT_ID,
  ERROR_CONTENT_TYPE,
  type ScryptAlgorithmName,
  SUCCESS_CONTENT_TYPE,
  VENDOR_SCRYPT,
} from '../../core-client/src/contract/names.js';
import { type DoubleAnswer, isJsonObject, textAnswer } from './answers.js';
import { type ContentionSettings, LOCKED_TABLE_TEXT, isConsumeCall, isWriteCall, writesToStore } from './contention.js';
import { type Fault, type FaultAnswer, FaultPlan, isDrop } from './faults.js';
import type { IdentityFeatureName } from './identity-handlers.js';
import { answerCall } from './routes.js';
import {
  type CoreStorage,
  type StoredCode,
  type StoredEmailPasswordUser,
  type StoredPasswordlessUser,
  type StoredThirdPartyUser,
  type StoredUser,
  UserStore,
} from './store.js';

export interface CoreDoubleOptions {
  /** When given, every call but `/hello` needs one of these (header `api-key` or `Authorization: Bearer`). */
  apiKeys?: string[];
  /** The scrypt variant's signer key (base64); without it `$f_scrypt$` imports get the core's 500. */
  signerKey?: string;
  /**
   * The name under which it imports the scrypt variant: the contract's `vendor_scrypt` (default), or
   * `firebase_scrypt` as a core in the field (../shared/spec/core-transcripts/scrypt-names.json); the other name is
   * an unsupported algorithm, as on that core.
   */
  scryptAlgorithmName?: ScryptAlgorithmName;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1; a test of plain http to another host binds to an outward address of this machine. */
  host?: string;
  /** Tenants besides `public` (they exist in every known app). */
  tenants?: string[];
  /** Apps besides `public`. */
  apps?: string[];
  /** `legacy` answers with the flat `{id,email,timeJoined}` user of older cores. Default `recent`. */
  userShape?: 'recent' | 'legacy';
  /** Serve under this path, as a core behind a reverse proxy at e.g. `/core` (other paths get 404). */
  pathPrefix?: string;
  /**
   * How many of the latest requests `requests()` keeps (default 100,000; 0 keeps none). A long-running sandbox core
   * must not grow with every request (1.1 M requests kept whole took 1.4 GiB); `requestCount()` counts them all.
   */
  keepRequests?: number;
  /** Identity features to answer 404 for, as a core without them (see also `identity.setMissing`). */
  missingFeatures?: IdentityFeatureName[];
  /** In [0, 1): who loses a lock conflict under `faults.setContention`. Default Math.random. */
  random?: () => number;
  /** Serve the users of this double: two cores over one database (each with its own faults and requests). */
  shareStoreWith?: CoreDouble;
  /**
   * Which storage a real core's answers are taken from where the two differed (store.ts, `CoreStorage`). Default
   * `postgresql`; ignored with `shareStoreWith` (the store is the other double's).
   */
  storage?: CoreStorage;
}

export interface RecordedRequest {
  /** 1-based, counted since start or the last reset. */
  number: number;
  method: string;
  /** As received, with any query. */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as JSON, or `undefined` when it is empty or not JSON. */
  body: unknown;
}

export interface CoreDouble {
  url: string;
  port: number;
  /** The users, mappings and metadata it serves (shared with the doubles started with `shareStoreWith` it). */
  readonly store: UserStore;
  close(): Promise<void>;
  users(): StoredUser[];
  emailPasswordUsers(): StoredEmailPasswordUser[];
  thirdPartyUsers(): StoredThirdPartyUser[];
  passwordlessUsers(): StoredPasswordlessUser[];
  /** Passwordless codes made and not yet consumed nor removed (what a run killed between the two calls leaves). */
  passwordlessCodes(): StoredCode[];
  /** The latest requests, oldest first (at most `keepRequests`). */
  requests(): RecordedRequest[];
  /** Every request since start or the last reset, also those no longer kept. */
  requestCount(): number;
  /** Requests received and not answered yet (waiting for capacity included). */
  inFlight(): number;
  /**
   * Writes carried out since start or the last reset: POSTs and PUTs answered 200 (a sign-in aside, which only reads),
   * also those that changed nothing, such as the removal of an unknown id. A refused body is no write.
   */
  writeCount(): number;
  /** Forgets users, recorded requests and faults; restarts request numbering. */
  reset(): void;
  /** The identity state beyond the contract, for assertions; and the switch that makes features answer 404. */
  identity: {
    setMissing(features: readonly IdentityFeatureName[]): void;
    metadataOf(userId: string): Record<string, unknown>;
    isVerified(userId: string, email: string): boolean;
    /** The external id a user (by the core's own id or external id) is mapped to, if any. */
    externalIdOf(userId: string): string | undefined;
  };
  faults: {
    setLatencyMs(ms: number): void;
    failNext(count: number, answer: FaultAnswer): void;
    failRequestNumber(requestNumber: number, fault: Fault): void;
    dropNext(count: number): void;
    /** Holds requests to a path (of a method, with a body containing a text) until `releaseHeld`: neither acted on nor answered. */
    holdPath(path: string, method?: string, bodyContains?: string): void;
    heldCount(): number;
    releaseHeld(): void;
    /** The next answers (to a method, to a path ending so) send their headers, then their body `ms` later: acted on, answer late. */
    slowBodyNext(count: number, ms: number, method?: string, path?: string): void;
    /** A store that locks (`defaultContention`, measured on a real in-memory core: contention.ts). */
    setContention(settings: ContentionSettings | undefined): void;
    /** The next `count` passwordless consumes of a code that is there use it up, then answer the locked-table 500 (no user made). */
    loseConsumesAfterUse(count: number): void;
    /** Serve at most `size` requests at once, the others wait (undefined: no limit). */
    setCapacity(size: number | undefined): void;
    /** Every request arriving in the next `ms` gets `answer`, e.g. 429 with Retry-After 1 (a rate-limit storm). */
    failFor(ms: number, answer: FaultAnswer): void;
    /** Every request whose body contains `text` gets `answer` (a record the core chokes on). */
    failBodiesContaining(text: string, answer: FaultAnswer): void;
    clearFaults(): void;
  };
}

const DEFAULT_KEEP_REQUESTS = 100_000;

/** The latest `capacity` requests in a fixed array: memory stays flat however long the double runs. */
class RequestRing {
  readonly capacity: number;
  #slots: RecordedRequest[] = [];
  #next = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new Error(`keepRequests must be a whole number from 0, not ${capacity}.`);
    this.capacity = capacity;
  }

  push(entry: RecordedRequest): void {
    // A sandbox keeps none (counters only); `% 0` would put each request at the array's key "NaN".
    if (this.capacity === 0) return;
    if (this.#slots.length < this.capacity) this.#slots.push(entry);
    else this.#slots[this.#next] = entry;
    this.#next = (this.#next + 1) % this.capacity;
  }

  toArray(): RecordedRequest[] {
    if (this.#slots.length < this.capacity) return [...this.#slots];
    return [...this.#slots.slice(this.#next), ...this.#slots.slice(0, this.#next)];
  }

  clear(): void {
    this.#slots = [];
    this.#next = 0;
  }
}

/** A consume that lost the lock after its first transaction: its code is used up, no user made. False when it had no code. */
function useCodeOf(store: UserStore, body: unknown): boolean {
  if (!isJsonObject(body)) return false;
  const { preAuthSessionId, linkCode } = body;
  return typeof preAuthSessionId === 'string' && typeof linkCode === 'string' && store.useCode(preAuthSessionId, linkCode);
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function faultAnswer(fault: FaultAnswer): DoubleAnswer {
  const headers: Record<string, string> = {};
  if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
  if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
  const contentType = fault.contentType ?? (fault.status === 200 ? SUCCESS_CONTENT_TYPE : ERROR_CONTENT_TYPE);
  const body = fault.body ?? (fault.status === 200 ? '' : `Injected fault ${fault.status}\n`);
  return { status: fault.status, contentType, body, headers };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts a strict HTTP double of the core on 127.0.0.1 (see spec/core-behaviour.md). */
export async function startCoreDouble(options: CoreDoubleOptions = {}): Promise<CoreDouble> {
  const store = options.shareStoreWith?.store ?? new UserStore(options.storage);
  const plan = new FaultPlan(options.random);
  const settings = {
    apiKeys: options.apiKeys ?? [],
    signerKey: options.signerKey,
    scryptAlgorithmName: options.scryptAlgorithmName ?? VENDOR_SCRYPT,
    tenants: new Set([DEFAULT_TENANT_ID, ...(options.tenants ?? [])]),
    apps: new Set([DEFAULT_APP_ID, ...(options.apps ?? [])]),
    store,
    userShape: options.userShape ?? 'recent',
    pathPrefix: (options.pathPrefix ?? '').replace(/\/+$/, ''),
    missingFeatures: new Set<IdentityFeatureName>(options.missingFeatures ?? []),
  };
  const recorded = new RequestRing(options.keepRequests ?? DEFAULT_KEEP_REQUESTS);
  let requestCount = 0;
  let inFlight = 0;
  let writes = 0;
  const pendingTimers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();

  const later = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        resolve();
      }, ms);
      pendingTimers.add(timer);
    });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(request);
    requestCount += 1;
    inFlight += 1;
    let leave: (() => void) | undefined;
    try {
      const number = requestCount;
      const call = { method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, rawBody };
      // Parsed only when someone reads it: at tens of thousands of requests a second it shows.
      const body = recorded.capacity > 0 || plan.contention !== undefined ? parseJson(rawBody) : undefined;
      if (recorded.capacity > 0) recorded.push({ number, ...call, headers: { ...call.headers }, body });

      await plan.passHold(call.method, call.path, rawBody);
      leave = await plan.capacity?.enter();
      // A held request whose client went away is not acted on, as a core never sees a request that was not sent.
      if (request.socket.destroyed) return;
      const fault = plan.takeFault(number) ?? plan.poisonAnswer(rawBody) ?? plan.stormAnswer();
      if (fault !== undefined && isDrop(fault)) {
        request.socket.destroy();
        return;
      }
      const write = fault === undefined && writesToStore(call.method, call.path, body);
      const consume = fault === undefined && isConsumeCall(call.method, call.path);
      // `loseConsumesAfterUse`: a consume whose code is there uses it up, then loses the lock.
      const consumeLost = consume && plan.consumesToLose > 0 && useCodeOf(store, parseJson(rawBody)) && plan.takeLostConsume();
      if (consumeLost || (write && plan.losesLock(inFlight, store.size))) {
        // On the real store a lost write fails after its turn, as late as a written one; the earlier model answered it
        // at once, before any latency (core-behaviour.md, "Under concurrency").
        if (plan.lostWriteTakesTurn) await plan.storeTurn(store.size);
        if (consume && !consumeLost && plan.lostConsumeUsedCode()) useCodeOf(store, parseJson(rawBody));
        await respond(response, textAnswer(500, LOCKED_TABLE_TEXT), call, { immediate: !plan.lostWriteTakesTurn });
        return;
      }
      if (write) await plan.storeTurn(store.size);
      else if (call.method === 'GET' && fault === undefined) {
        const readDelayMs = plan.readDelayMs(store.size);
        if (readDelayMs > 0) await later(readDelayMs);
      }
      const answer = fault !== undefined ? faultAnswer(fault) : await answerCall(call, settings);
      if (fault === undefined && answer.status === 200 && isWriteCall(call.method, call.path)) writes += 1;
      await respond(response, answer, call);
    } finally {
      inFlight -= 1;
      leave?.();
    }
  }

  async function respond(
    response: ServerResponse,
    answer: DoubleAnswer,
    call: { method: string; path: string },
    options: { immediate?: boolean } = {},
  ): Promise<void> {
    if (plan.latencyMs > 0 && options.immediate !== true) await later(plan.latencyMs);
    const slowBodyMs = plan.takeSlowBody(call.method, call.path.split('?')[0] ?? call.path);
    response.writeHead(answer.status, {
      'content-type': answer.contentType,
      'content-length': Buffer.byteLength(answer.body),
      ...answer.headers,
    });
    if (slowBodyMs === undefined) {
      response.end(answer.body);
      return;
    }
    response.flushHeaders();
    await later(slowBodyMs);
    if (!response.destroyed) response.end(answer.body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': ERROR_CONTENT_TYPE });
        response.end(`${String(error)}\n`);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    store,
    async close() {
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    users: () => store.all(),
    emailPasswordUsers: () => store.all().filter((user): user is StoredEmailPasswordUser => user.kind === 'emailPassword'),
    thirdPartyUsers: () => store.all().filter((user): user is StoredThirdPartyUser => user.kind === 'thirdParty'),
    passwordlessUsers: () => store.all().filter((user): user is StoredPasswordlessUser => user.kind === 'passwordless'),
    passwordlessCodes: () => store.codes(),
    requests: () => recorded.toArray().map((entry) => ({ ...entry, headers: { ...entry.headers } })),
    requestCount: () => requestCount,
    inFlight: () => inFlight,
    writeCount: () => writes,
    reset() {
      store.clear();
      plan.clearFaults();
      recorded.clear();
      requestCount = 0;
      writes = 0;
    },
    identity: {
      setMissing: (features) => {
        settings.missingFeatures = new Set(features);
      },
      metadataOf: (userId) => store.metadataOf(userId),
      isVerified: (userId, email) => store.isVerified(userId, email),
      externalIdOf: (userId) => store.mappingOf(userId, 'ANY')?.externalId,
    },
    faults: {
      setLatencyMs: (ms) => plan.setLatencyMs(ms),
      failNext: (count, answer) => plan.failNext(count, answer),
      failRequestNumber: (requestNumber, fault) => plan.failRequestNumber(requestNumber, fault),
      dropNext: (count) => plan.dropNext(count),
      holdPath: (path, method, bodyContains) => plan.holdPath(path, method, bodyContains),
      heldCount: () => plan.heldCount,
      releaseHeld: () => plan.releaseHeld(),
      slowBodyNext: (count, ms, method, path) => plan.slowBodyNext(count, ms, method, path),
      setContention: (contention) => plan.setContention(contention),
      loseConsumesAfterUse: (count) => plan.loseConsumesAfterUse(count),
      setCapacity: (size) => plan.setCapacity(size),
      failFor: (ms, answer) => plan.failFor(ms, answer),
      failBodiesContaining: (text, answer) => plan.failBodiesContaining(text, answer),
      clearFaults: () => plan.clearFaults(),
    },
  };
}
