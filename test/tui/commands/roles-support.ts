import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { Secret } from '../../../core-client/src/secret.js';
import type { CoreDouble } from '../../core-double/index.js';
import { VENDOR_SCRYPT_VECTOR } from '../../core-double/known-hashes.js';
import { API_KEY, writeVectorHashConfig } from './push-support.js';

/** The roles file of the role suites: each role with its permissions. */
export const ROLES_FILE = { admin: ['users:read', 'users:write'], editor: ['posts:write'], viewer: ['posts:read'] };

/**
 * A Firebase export whose users keep roles in their custom claims (`roles`), and the hash config of its scrypt hashes.
 * `claims` is each user's custom claims, by old id; `extra` users more, each with the `editor` role.
 */
export async function writeFirebaseRolesExport(
  dir: string,
  claims: Record<string, Record<string, unknown> | undefined>,
  extra = 0,
): Promise<{ exportPath: string; hashConfigPath: string; rolesPath: string }> {
  const v = VENDOR_SCRYPT_VECTOR;
  const user = (localId: string, custom: Record<string, unknown> | undefined) => ({
    localId,
    email: `${localId}@example.com`,
    emailVerified: true,
    passwordHash: v.hash,
    salt: v.salt,
    ...(custom === undefined ? {} : { customAttributes: JSON.stringify(custom) }),
  });
  const users = Object.entries(claims).map(([localId, custom]) => user(localId, custom));
  for (let index = 1; index <= extra; index += 1) users.push(user(`fb-x${index}`, { roles: ['editor'] }));
  const exportPath = join(dir, 'users.json');
  const hashConfigPath = join(dir, 'hash_config.txt');
  const rolesPath = join(dir, 'roles.json');
  await writeFile(exportPath, `${JSON.stringify({ users })}\n`);
  await writeVectorHashConfig(hashConfigPath);
  await writeFile(rolesPath, JSON.stringify(ROLES_FILE));
  return { exportPath, hashConfigPath, rolesPath };
}

/** A client of the double for the assertions: what the core holds, asked over HTTP as an application would. */
export function coreClientOf(core: CoreDouble, apiKey = API_KEY): CoreClient {
  return new CoreClient({ baseUrl: core.url, apiKey: new Secret(apiKey), retry: false });
}

export async function reportLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
