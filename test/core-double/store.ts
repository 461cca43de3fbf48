import { randomUUID } from 'node:crypto';
import type { VENDOR_SCRYPT } from '../../core-client/src/contract/names.js';

/** Which app and tenant a request is for (from its path). */
export interface Scope {
  appId: string;
  tenantId: string;
}

export interface StoredEmailPasswordUser extends Scope {
  kind: 'emailPassword';
  id: string;
  email: string;
  passwordHash: string;
  hashingAlgorithm: typeof VENDOR_SCRYPT | undefined;
  timeJoined: number;
}

export interface StoredThirdPartyUser extends Scope {
  kind: 'thirdParty';
  id: string;
  thirdPartyId: string;
  thirdPartyUserId: string;
  email: string;
  isVerified: boolean;
  timeJoined: number;
}

export type StoredUser = StoredEmailPasswordUser | StoredThirdPartyUser;

/** The double's in-memory user table, one namespace per app and tenant, as a core with an in-memory database. */
export class UserStore {
  readonly #emailPassword = new Map<string, StoredEmailPasswordUser>();
  readonly #thirdParty = new Map<string, StoredThirdPartyUser>();

  /** Replaces the hash of an existing user with that email (the core does the same). */
  importPasswordHash(
    scope: Scope,
    email: string,
    passwordHash: string,
    hashingAlgorithm: typeof VENDOR_SCRYPT | undefined,
  ): { user: StoredEmailPasswordUser; didUserAlreadyExist: boolean } {
    const key = keyOf(scope, email);
    const existing = this.#emailPassword.get(key);
    const user: StoredEmailPasswordUser = existing
      ? { ...existing, passwordHash, hashingAlgorithm }
      : { kind: 'emailPassword', ...scope, id: randomUUID(), email, passwordHash, hashingAlgorithm, timeJoined: Date.now() };
    this.#emailPassword.set(key, user);
    return { user, didUserAlreadyExist: existing !== undefined };
  }

  /** Creates the user for a new (thirdPartyId, thirdPartyUserId) pair; otherwise updates its email and flag. */
  signInUp(
    scope: Scope,
    thirdPartyId: string,
    thirdPartyUserId: string,
    email: string,
    isVerified: boolean,
  ): { user: StoredThirdPartyUser; createdNewUser: boolean } {
    const key = keyOf(scope, thirdPartyId, thirdPartyUserId);
    const existing = this.#thirdParty.get(key);
    const user: StoredThirdPartyUser = existing
      ? { ...existing, email, isVerified }
      : { kind: 'thirdParty', ...scope, id: randomUUID(), thirdPartyId, thirdPartyUserId, email, isVerified, timeJoined: Date.now() };
    this.#thirdParty.set(key, user);
    return { user, createdNewUser: existing === undefined };
  }

  findEmailPasswordUser(scope: Scope, email: string): StoredEmailPasswordUser | undefined {
    return this.#emailPassword.get(keyOf(scope, email));
  }

  all(): StoredUser[] {
    return [...this.#emailPassword.values(), ...this.#thirdParty.values()].map((user) => ({ ...user }));
  }

  clear(): void {
    this.#emailPassword.clear();
    this.#thirdParty.clear();
  }
}

function keyOf(scope: Scope, ...parts: string[]): string {
  return JSON.stringify([scope.appId, scope.tenantId, ...parts]);
}

/** The user object a recent core returns, or the flat one of older cores. */
export function userJson(user: StoredUser, shape: 'recent' | 'legacy'): Record<string, unknown> {
  if (shape === 'legacy') return { id: user.id, email: user.email, timeJoined: user.timeJoined };
  const thirdParty = user.kind === 'thirdParty' ? [{ id: user.thirdPartyId, userId: user.thirdPartyUserId }] : [];
  return {
    id: user.id,
    isPrimaryUser: false,
    tenantIds: [user.tenantId],
    timeJoined: user.timeJoined,
    emails: [user.email],
    phoneNumbers: [],
    thirdParty,
    loginMethods: [
      {
        recipeId: user.kind === 'thirdParty' ? 'thirdparty' : 'emailpassword',
        recipeUserId: user.id,
        email: user.email,
        verified: user.kind === 'thirdParty' ? user.isVerified : false,
        tenantIds: [user.tenantId],
        timeJoined: user.timeJoined,
        ...(user.kind === 'thirdParty' ? { thirdParty: thirdParty[0] } : {}),
      },
    ],
  };
}
