import { Agent, request } from 'undici';
import { readAnswerBody } from '../../http/answer-body.js';
import { parseRetryAfterMs } from '../../http/retry-after.js';
import type { PasswordVerdict } from './old-system-verifier.js';

/** An old system's answer to a sign-in is a token or an error of a few kilobytes. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** A Retry-After beyond this is answered as this: the backend asks again, and the old system answers again. */
const MAX_RETRY_AFTER_SECONDS = 3600;

/** A Retry-After header in whole seconds, at least 1 and at most an hour; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | string[] | undefined): number | undefined {
  const ms = parseRetryAfterMs(Array.isArray(header) ? header[0] : header, Date.now());
  return ms === undefined ? undefined : Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(ms / 1000)));
}

/** What the old system answered, read within bounds: its status, its Retry-After, and its body as JSON when it is. */
export interface OldSystemReply {
  status: number;
  retryAfterSeconds?: number;
  json: unknown;
}

const tryLater = (reason: 'oldSystemUnreachable' | 'oldSystemBusy', retryAfter?: number): PasswordVerdict => ({
  outcome: 'tryLater',
  reason,
  ...(retryAfter !== undefined && { retryAfterSeconds: retryAfter }),
});

/**
 * One old system's HTTP client: an undici agent whose connecting, waiting for headers and reading of the body are
 * each bounded, and a whole call bounded by `timeoutMs`. A call that cannot be made in time is `oldSystemUnreachable`;
 * a 429 or 503 is `oldSystemBusy` with its Retry-After; any other 5xx `oldSystemUnreachable`. The rest is the
 * verifier's to read. Errors' words are never kept: they may quote the URL, whose query may hold a key.
 */
export class OldSystemHttp {
  readonly #agent: Agent;
  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 64 });
  }

  async post(url: URL, headers: Record<string, string>, body: string): Promise<OldSystemReply | PasswordVerdict> {
    try {
      const answer = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      const retryAfter = retryAfterSeconds(answer.headers['retry-after']);
      const text = await readAnswerBody(answer.body, singleHeader(answer.headers['content-length']), MAX_ANSWER_BYTES);
      if (answer.statusCode === 429 || answer.statusCode === 503) return tryLater('oldSystemBusy', retryAfter);
      if (answer.statusCode >= 500) return tryLater('oldSystemUnreachable', retryAfter);
      return {
        status: answer.statusCode,
        ...(retryAfter !== undefined && { retryAfterSeconds: retryAfter }),
        json: text.ok ? jsonOrUndefined(text.text) : undefined,
      };
    } catch {
      return tryLater('oldSystemUnreachable');
    }
  }

  /**
   * Whether the old system answers at `url` at all: a plain GET with no key, no email and no password, so it can never
   * tell a password right or wrong, nor count towards a lockout. Any answer below 500 (a 404 or 405 from an endpoint
   * that wants a POST, a 401) proves it is there; a 5xx, a refused connection or no answer in time says it is not.
   */
  async answers(url: URL): Promise<boolean> {
    try {
      const answer = await request(url, { method: 'GET', dispatcher: this.#agent, signal: AbortSignal.timeout(this.#timeoutMs) });
      await answer.body.dump({ limit: MAX_ANSWER_BYTES });
      return answer.statusCode < 500;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

export function isReply(value: OldSystemReply | PasswordVerdict): value is OldSystemReply {
  return 'status' in value;
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
