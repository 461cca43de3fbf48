import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { coreMigrate, described, jsonOf } from './support/binary.js';
import { callCore, metadataOf, userCount } from './support/core-calls.js';
import { STORAGES, describeLive, useRealCore, type RealCore } from './support/real-core.js';

const LoginMethod = z.looseObject({ recipeId: z.string(), phoneNumber: z.string().optional(), email: z.string().optional() });
const AccountInfoAnswer = z.looseObject({ status: z.literal('OK'), users: z.array(z.looseObject({ id: z.string(), loginMethods: z.array(LoginMethod) })) });
const RolesAnswer = z.looseObject({ status: z.literal('OK'), roles: z.array(z.string()) });

/** `GET /users/by-accountinfo`: the users the core has for one phone number or email, of every login kind. */
async function usersBy(url: string, login: { phoneNumber: string } | { email: string }): Promise<z.infer<typeof AccountInfoAnswer>['users']> {
  const query = 'phoneNumber' in login ? `phoneNumber=${encodeURIComponent(login.phoneNumber)}` : `email=${encodeURIComponent(login.email)}`;
  const answer = await callCore(url, 'GET', `/users/by-accountinfo?${query}&doUnionOfAccountInfo=true`);
  return AccountInfoAnswer.parse(answer.body).users;
}

async function rolesOf(url: string, userId: string): Promise<string[]> {
  const answer = await callCore(url, 'GET', `/recipe/user/roles?userId=${encodeURIComponent(userId)}`);
  return RolesAnswer.parse(answer.body).roles;
}

/** Users of a mobile app who sign in with their phone number, and one who signs in with an email link. */
const phoneUsers = [
  { localId: 'fb-phone-1', phoneNumber: '+14155550123', displayName: 'Ines Phone', roles: ['member'] },
  { localId: 'fb-phone-2', phoneNumber: '+447700900123', displayName: 'Oscar Phone', roles: ['member', 'editor'] },
];
const linkUser = { localId: 'fb-link', email: 'link@example.com', roles: ['reader'] };

function firebaseExport(): string {
  const users = [
    ...phoneUsers.map((user) => ({
      localId: user.localId,
      phoneNumber: user.phoneNumber,
      displayName: user.displayName,
      createdAt: '1600000000000',
      customAttributes: JSON.stringify({ roles: user.roles }),
      providerUserInfo: [{ providerId: 'phone', rawId: user.phoneNumber, phoneNumber: user.phoneNumber }],
    })),
    {
      localId: linkUser.localId,
      email: linkUser.email,
      emailVerified: true,
      customAttributes: JSON.stringify({ roles: linkUser.roles }),
      providerUserInfo: [],
    },
  ];
  return `${JSON.stringify({ users })}\n`;
}

/**
 * Issue 27 on a real core: users with no password who sign in with their phone or an email link arrive as the core's
 * passwordless users, found by their login with their old id, with their profile and roles; a second push creates
 * nobody.
 */
for (const storage of STORAGES) {
  describeLive(`passwordless users on a real core (${storage} storage)`, { core: storage }, () => {
    let core: RealCore;
    let dir: string;
    const push = (...args: string[]) => coreMigrate(['push', 'users.json', '--core', core.url, '--roles-from', 'customClaims.roles', '--json', ...args], dir);

    beforeAll(async () => {
      [core, dir] = await Promise.all([useRealCore({ core: storage }), mkdtemp(join(tmpdir(), 'real-core-passwordless-'))]);
      await writeFile(join(dir, 'users.json'), firebaseExport());
    });
    afterAll(async () => {
      await core?.stop();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    it('a phone-only user is found by its number with its old id, its profile and its roles; so is an email-link user', async () => {
      const first = await push();
      expect(first.code, described(first)).toBe(0);
      expect(jsonOf(first)).toMatchObject({ passwordlessCreated: 3, passwordlessExisting: 0, failed: 0, total: 3 });
      expect(await userCount(core.url)).toBe(3);

      for (const user of phoneUsers) {
        const found = await usersBy(core.url, { phoneNumber: user.phoneNumber });
        expect(found.map((each) => each.id)).toEqual([user.localId]);
        expect(found[0]?.loginMethods).toEqual([expect.objectContaining({ recipeId: 'passwordless', phoneNumber: user.phoneNumber })]);
        expect(await metadataOf(core.url, user.localId)).toMatchObject({ displayName: user.displayName });
        expect((await rolesOf(core.url, user.localId)).sort()).toEqual([...user.roles].sort());
      }
      const linked = await usersBy(core.url, { email: linkUser.email });
      expect(linked.map((each) => each.id)).toEqual([linkUser.localId]);
      expect(linked[0]?.loginMethods).toEqual([expect.objectContaining({ recipeId: 'passwordless', email: linkUser.email })]);
      expect(await rolesOf(core.url, linkUser.localId)).toEqual(linkUser.roles);
    });

    it('a second push creates nothing: from its journal it skips them; with a new journal it finds them there', async () => {
      const again = await push();
      expect(again.code, described(again)).toBe(0);
      expect(jsonOf(again)).toMatchObject({ passwordlessCreated: 0, skipped: 3, failed: 0 });

      const fresh = await push('--journal', join(dir, 'fresh.journal'));
      expect(fresh.code, described(fresh)).toBe(0);
      expect(jsonOf(fresh)).toMatchObject({ passwordlessCreated: 0, passwordlessExisting: 3, failed: 0 });
      expect(await userCount(core.url)).toBe(3);
      for (const user of phoneUsers) expect((await usersBy(core.url, { phoneNumber: user.phoneNumber })).map((each) => each.id)).toEqual([user.localId]);
    });
  });
}
