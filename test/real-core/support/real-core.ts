import { createServer, request as httpRequest, type Server } from 'node:http';
import { describe } from 'vitest';
import { z } from 'zod';
import { callCore } from '../../support/core-exchanges.js';

/**
 * The live cores the suites take by URL (docs/contributing.md, "Tests against a real core"): a core of this kind
 * 10.0.x that you run yourself on loopback. Nothing here starts one. Unset, a suite is skipped and its title says why.
 */
const CORE_URL_VARIABLES = {
  memory: 'REAL_CORE_URL',
  postgresql: 'REAL_CORE_PG_URL',
  /** A core with no signer key configured: the one suite about that mistake. */
  noSignerKey: 'REAL_CORE_NO_SIGNER_KEY_URL',
} as const;
export type Storage = 'memory' | 'postgresql';
export const STORAGES: readonly Storage[] = ['memory', 'postgresql'];

const given = (name: string): string | undefined => {
  const value = process.env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** The key the live cores accept (`REAL_CORE_API_KEY`); the suites pass it to the binary as CORE_API_KEY. */
export const REAL_CORE_API_KEY = given('REAL_CORE_API_KEY') ?? '';
/** The scrypt variant's signer key the live cores were started with (`REAL_CORE_SIGNER_KEY`), if any. */
export const REAL_CORE_SIGNER_KEY = given('REAL_CORE_SIGNER_KEY');

/** What a suite needs of its core: which one, and whether it imports scrypt-variant users (then the signer key). */
export interface CoreNeeds {
  core: Storage | 'noSignerKey';
  signerKey?: boolean;
}

/** Why a suite cannot run here, or undefined when its core is given. */
export function skipReason(needs: CoreNeeds): string | undefined {
  const variable = CORE_URL_VARIABLES[needs.core];
  if (given(variable) === undefined) return `${variable} is not set: no live core to run against`;
  if (REAL_CORE_API_KEY === '') return 'REAL_CORE_API_KEY is not set';
  if (needs.signerKey === true && REAL_CORE_SIGNER_KEY === undefined) return 'REAL_CORE_SIGNER_KEY is not set (this suite imports scrypt-variant users)';
  return undefined;
}

/** A suite against a live core: run when the core is given, else skipped with the reason in its title. */
export function describeLive(title: string, needs: CoreNeeds, body: () => void): void {
  const reason = skipReason(needs);
  describe.skipIf(reason !== undefined)(reason === undefined ? title : `${title} (skipped: ${reason})`, body);
}

export interface RealCore {
  /** Where the binary and the checks send their requests: the core's URL, or the suite's recording proxy before it. */
  url: string;
  /** The core's own URL. */
  coreUrl: string;
  /** With `logRequests`: every request sent through `url` so far, as `METHOD PATH BODY`. */
  requestsReceived(): string[];
  /** Removes every user and role the suite left (the core was empty when it started), and the proxy. */
  stop(): Promise<void>;
}

const CountAnswer = z.looseObject({ count: z.number() });
const UsersPage = z.looseObject({ users: z.array(z.looseObject({ id: z.string() })), nextPaginationToken: z.string().optional() });
const RolesAnswer = z.looseObject({ roles: z.array(z.string()) });

async function readJson<Shape extends z.ZodType>(url: string, path: string, shape: Shape): Promise<z.infer<Shape>> {
  const answer = await callCore(url, 'GET', path, undefined, REAL_CORE_API_KEY);
  const parsed = shape.safeParse(answer.body);
  if (answer.status !== 200 || !parsed.success) throw new Error(`GET ${path} on ${url} answered ${answer.status} ${answer.text}`);
  return parsed.data;
}

/**
 * The live core a suite was given, checked empty first: the suites count the users they make, so one that finds
 * users or roles there stops with a sentence instead of judging someone else's data. Its `stop` leaves the core empty
 * again for the next suite.
 */
export async function useRealCore(needs: CoreNeeds, options: { logRequests?: boolean } = {}): Promise<RealCore> {
  const coreUrl = (given(CORE_URL_VARIABLES[needs.core]) ?? '').replace(/\/+$/, '');
  await requireEmptyCore(coreUrl);
  const log: string[] = [];
  const proxy = options.logRequests === true ? await startRecordingProxy(coreUrl, log) : undefined;
  return {
    url: proxy?.url ?? coreUrl,
    coreUrl,
    requestsReceived: () => {
      if (proxy === undefined) throw new Error('use the core with logRequests to read what it received');
      return [...log];
    },
    stop: async () => {
      await proxy?.close();
      await emptyCore(coreUrl);
    },
  };
}

/** Refuses a core that holds users or roles: the suites and the bench count what they make, and judge no one else's. */
export async function requireEmptyCore(url: string): Promise<void> {
  const users = (await readJson(url, '/users/count', CountAnswer)).count;
  const roles = (await readJson(url, '/recipe/roles', RolesAnswer)).roles;
  if (users > 0 || roles.length > 0) {
    throw new Error(`This needs an empty core: ${url} holds ${users} user(s) and ${roles.length} role(s). Give it a core of its own.`);
  }
}

/** Removes every user and role of a core this run found empty (`requireEmptyCore`). */
export async function emptyCore(url: string): Promise<void> {
  let left = (await readJson(url, '/users/count', CountAnswer)).count;
  while (left > 0) {
    const page = await readJson(url, '/users?limit=500', UsersPage);
    for (const user of page.users) await callCore(url, 'POST', '/user/remove', { userId: user.id }, REAL_CORE_API_KEY);
    const now = (await readJson(url, '/users/count', CountAnswer)).count;
    // A core that keeps its users whatever is removed would hold this loop forever: stop with what it holds.
    if (now >= left) throw new Error(`${url} still holds ${now} user(s) after their removal: empty it by hand.`);
    left = now;
  }
  for (const role of (await readJson(url, '/recipe/roles', RolesAnswer)).roles) {
    await callCore(url, 'POST', '/recipe/role/remove', { role }, REAL_CORE_API_KEY);
  }
}

/** A loopback proxy of the suite's own that passes every request on to the core and logs it (what a push sent). */
async function startRecordingProxy(target: string, log: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      log.push(`${incoming.method ?? ''} ${incoming.url ?? ''} ${body.toString('utf8')}`);
      const forwarded = httpRequest(`${target}${incoming.url ?? ''}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on('error', () => outgoing.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the recording proxy got no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
