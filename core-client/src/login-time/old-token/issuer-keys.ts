import { createLocalJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { isHttpsOrLoopback } from '../old-system/old-system-settings.js';
import type { KeyDocuments } from './key-document.js';
import type { TokenKeysFailure } from './token-answer.js';

/** Where an issuer's keys are: a key set's URL, or the OpenID discovery document that names it (`jwks_uri`). */
export type KeysLocation = { keySet: URL } | { discovery: URL; issuer: string };

/**
 * How long a key set is kept: as its `Cache-Control: max-age` says (Google's says hours), within bounds. Never past an
 * hour, so a key the issuer withdrew is trusted an hour at most; never under 30 seconds, so an issuer that says
 * `no-store` is not asked at every token; ten minutes when it says nothing.
 */
export const KEYS_LIFETIME_SECONDS = { unsaid: 600, min: 30, max: 3600 } as const;
/** A token with a `kid` the keys held do not have makes the keys be fetched again, but not sooner than this after the last fetch. */
export const UNKNOWN_KEY_COOLDOWN_MS = 30_000;
/** After a failed fetch, the keys are not asked for again before this: a down issuer is not hammered by every token. */
export const FAILED_FETCH_BACKOFF_MS = 5_000;

/** The keys could not be had: nothing is decided for the token; ask again after `retryAfterSeconds`. */
export class KeysUnavailable extends Error {
  override readonly name = 'KeysUnavailable';
  constructor(
    readonly failure: TokenKeysFailure,
    readonly retryAfterSeconds: number,
  ) {
    super(`the issuer's keys could not be had (${failure})`);
  }
}

interface HeldKeys {
  select: ReturnType<typeof createLocalJWKSet>;
  fetchedAt: number;
  expiresAt: number;
}

type Fetched = { ok: true; held: HeldKeys } | { ok: false; failure: TokenKeysFailure };

const DiscoverySchema = z.object({ issuer: z.string(), jwks_uri: z.string() });

/**
 * One issuer's published keys, as jose's key resolver: fetched when first needed and when their lifetime ends, fetched
 * again for an unknown `kid` at most once per cooldown (a rotation), one fetch at a time however many tokens wait for
 * it, and not at all for a while after a failure. jose then picks the key by `kid` and `alg` and checks the
 * signature; only public keys are accepted from the set.
 */
export class IssuerKeys {
  readonly #location: KeysLocation;
  readonly #documents: KeyDocuments;
  readonly #now: () => number;
  #held: HeldKeys | undefined;
  #failed: { failure: TokenKeysFailure; at: number } | undefined;
  #pending: Promise<HeldKeys> | undefined;

  constructor(location: KeysLocation, documents: KeyDocuments, now: () => number) {
    this.#location = location;
    this.#documents = documents;
    this.#now = now;
  }

  /** The key for a token's header, for `jwtVerify`: throws `KeysUnavailable`, or jose's own errors (`JWKSNoMatchingKey`, …). */
  readonly resolve: JWTVerifyGetKey = async (header, token) => {
    const held = this.#held !== undefined && this.#now() < this.#held.expiresAt ? this.#held : await this.#refresh();
    try {
      return await held.select(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || this.#now() < held.fetchedAt + UNKNOWN_KEY_COOLDOWN_MS) throw error;
      return (await this.#refresh()).select(header, token);
    }
  };

  /** Whether keys are held, or can be fetched now: what a service checks before it starts and on `/health`. */
  async ready(): Promise<{ ok: true } | { ok: false; failure: TokenKeysFailure; retryAfterSeconds: number }> {
    if (this.#held !== undefined && this.#now() < this.#held.expiresAt) return { ok: true };
    try {
      await this.#refresh();
      return { ok: true };
    } catch (error) {
      if (error instanceof KeysUnavailable) return { ok: false, failure: error.failure, retryAfterSeconds: error.retryAfterSeconds };
      throw error;
    }
  }

  #refresh(): Promise<HeldKeys> {
    const failed = this.#failed;
    const waitMs = failed === undefined ? 0 : failed.at + FAILED_FETCH_BACKOFF_MS - this.#now();
    if (failed !== undefined && waitMs > 0) return Promise.reject(new KeysUnavailable(failed.failure, Math.max(1, Math.ceil(waitMs / 1000))));
    if (this.#pending === undefined) {
      const pending = this.#fetch().then((fetched) => {
        if (!fetched.ok) {
          this.#failed = { failure: fetched.failure, at: this.#now() };
          throw new KeysUnavailable(fetched.failure, Math.ceil(FAILED_FETCH_BACKOFF_MS / 1000));
        }
        this.#failed = undefined;
        this.#held = fetched.held;
        return fetched.held;
      });
      this.#pending = pending;
      // Cleared whichever way it ends, so the next refresh asks again (or waits out the backoff).
      void pending.then(
        () => this.#clearPending(pending),
        () => this.#clearPending(pending),
      );
    }
    return this.#pending;
  }

  #clearPending(pending: Promise<HeldKeys>): void {
    if (this.#pending === pending) this.#pending = undefined;
  }

  async #fetch(): Promise<Fetched> {
    const keySetUrl = await this.#keySetUrl();
    if (!(keySetUrl instanceof URL)) return { ok: false, failure: keySetUrl };
    const document = await this.#documents.fetch(keySetUrl);
    if (!document.ok) return document;
    let select: HeldKeys['select'];
    try {
      if (!hasKeys(document.json)) return { ok: false, failure: 'notKeySet' };
      select = createLocalJWKSet(document.json);
    } catch {
      return { ok: false, failure: 'notKeySet' };
    }
    const lifetime = Math.min(KEYS_LIFETIME_SECONDS.max, Math.max(KEYS_LIFETIME_SECONDS.min, document.maxAgeSeconds ?? KEYS_LIFETIME_SECONDS.unsaid));
    const fetchedAt = this.#now();
    return { ok: true, held: { select, fetchedAt, expiresAt: fetchedAt + lifetime * 1000 } };
  }

  /**
   * The key set's URL; through discovery, asked again at each fetch of the keys (a provider may move its keys), and
   * held to the discovery rules: the document names the issuer set, and its `jwks_uri` is https (or this machine).
   */
  async #keySetUrl(): Promise<URL | TokenKeysFailure> {
    if ('keySet' in this.#location) return this.#location.keySet;
    const document = await this.#documents.fetch(this.#location.discovery);
    if (!document.ok) return document.failure;
    const discovery = DiscoverySchema.safeParse(document.json);
    if (!discovery.success) return 'notDiscoveryDocument';
    if (discovery.data.issuer !== this.#location.issuer) return 'discoveryIssuerDiffers';
    if (!isHttpsOrLoopback(discovery.data.jwks_uri)) return 'discoveryKeysUrlRefused';
    return new URL(discovery.data.jwks_uri);
  }
}

/** A JWKS with at least one key: an empty set would refuse every token as signed by an unknown key. */
function hasKeys(json: unknown): json is { keys: Record<string, unknown>[] } {
  if (typeof json !== 'object' || json === null || !('keys' in json)) return false;
  const { keys } = json;
  return Array.isArray(keys) && keys.length > 0 && keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key));
}
