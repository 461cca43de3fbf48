import { Agent, request } from 'undici';
import { readAnswerBody } from '../../http/answer-body.js';
import type { TokenKeysFailure } from './token-answer.js';

/**
 * A key set is a few kilobytes (Google's two keys ~1.5 KB, an OpenID provider's dozen well under 20 KB), a discovery
 * document a few more: anything past this is not one, and is not read further.
 */
export const MAX_KEY_DOCUMENT_BYTES = 256 * 1024;

/** A JSON document the issuer published, and how long it says it may be kept (`Cache-Control: max-age`), if it says. */
export type KeyDocument = { ok: true; json: unknown; maxAgeSeconds: number | undefined } | { ok: false; failure: TokenKeysFailure };

/**
 * Fetches the issuer's key set and discovery document, each call bounded in time (connecting, the headers, the body,
 * and all of it by `timeoutMs`) and in size; no redirect is followed (a key set that moved is a setting to change, not
 * a place for an answer to send the service). Errors' words are never kept: they may quote the URL.
 */
export class KeyDocuments {
  readonly #agent: Agent;
  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 4 });
  }

  async fetch(url: URL): Promise<KeyDocument> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    try {
      const answer = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json, application/jwk-set+json' },
        dispatcher: this.#agent,
        signal,
      });
      if (answer.statusCode !== 200) {
        await answer.body.dump({ limit: MAX_KEY_DOCUMENT_BYTES }).catch(() => undefined);
        return { ok: false, failure: 'statusNotOk' };
      }
      const body = await readAnswerBody(answer.body, single(answer.headers['content-length']), MAX_KEY_DOCUMENT_BYTES);
      if (!body.ok) return { ok: false, failure: 'tooLarge' };
      const json = jsonOrUndefined(body.text);
      if (json === undefined) return { ok: false, failure: 'notJson' };
      return { ok: true, json, maxAgeSeconds: maxAgeOf(single(answer.headers['cache-control'])) };
    } catch (error) {
      return { ok: false, failure: signal.aborted || isTimeout(error) ? 'timedOut' : 'connectionFailed' };
    }
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/**
 * How long a private cache may keep the answer, from `Cache-Control`: `max-age`, or 0 for `no-store` / `no-cache`
 * (the caller bounds it both ways); undefined when the header says nothing of it.
 */
export function maxAgeOf(cacheControl: string | undefined): number | undefined {
  if (cacheControl === undefined) return undefined;
  const directives = cacheControl.split(',').map((directive) => directive.trim().toLowerCase());
  if (directives.some((directive) => directive === 'no-store' || directive === 'no-cache')) return 0;
  for (const directive of directives) {
    const seconds = /^max-age\s*=\s*"?(\d{1,10})"?$/.exec(directive)?.[1];
    if (seconds !== undefined) return Number(seconds);
  }
  return undefined;
}

function isTimeout(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return (error instanceof Error && error.name === 'TimeoutError') || (typeof code === 'string' && code.endsWith('_TIMEOUT'));
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
