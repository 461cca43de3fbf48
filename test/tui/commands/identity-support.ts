import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VENDOR_SCRYPT_VECTOR } from '../../core-double/known-hashes.js';
import { writeVectorHashConfig } from './push-support.js';

/** The double's signer key and the export's hash config: the published vector's, so hashes are well-formed. */
export const SIGNER_KEY = VENDOR_SCRYPT_VECTOR.signerKey;

export interface FirebaseFixture {
  exportPath: string;
  hashConfigPath: string;
}

type FirebaseUser = Record<string, unknown>;

const password = { passwordHash: VENDOR_SCRYPT_VECTOR.hash, salt: VENDOR_SCRYPT_VECTOR.salt };

/**
 * A Firebase auth:export JSON with one of each kind of user issue 13 is about: a verified password user who also
 * linked Google (two core users), a Google-only user, an unverified password user, and a disabled one; then
 * `extra` plain password users (verified, with a name) for runs long enough to kill.
 */
export async function writeFirebaseExport(dir: string, extra = 0): Promise<FirebaseFixture> {
  const users: FirebaseUser[] = [
    {
      localId: 'fb-ada',
      email: 'ada@example.com',
      emailVerified: true,
      ...password,
      displayName: 'Ada Lovelace',
      photoUrl: 'https://example.com/ada.png',
      createdAt: '1600000000000',
      lastSignedInAt: '1600000001000',
      customAttributes: '{"role":"admin","level":3}',
      providerUserInfo: [
        { providerId: 'password', rawId: 'ada@example.com', email: 'ada@example.com' },
        { providerId: 'google.com', rawId: 'g-ada', email: 'ada@example.com' },
      ],
    },
    { localId: 'fb-grace', email: 'grace@example.com', emailVerified: true, providerUserInfo: [{ providerId: 'google.com', rawId: 'g-grace' }] },
    { localId: 'fb-linus', email: 'linus@example.com', emailVerified: false, ...password },
    { localId: 'fb-mallory', email: 'mallory@example.com', emailVerified: true, ...password, disabled: true },
  ];
  for (let index = 1; index <= extra; index += 1) {
    users.push({ localId: `fb-u${index}`, email: `user${index}@example.com`, emailVerified: true, ...password, displayName: `User ${index}` });
  }
  const exportPath = join(dir, 'users.json');
  const hashConfigPath = join(dir, 'hash_config.txt');
  await writeFile(exportPath, `${JSON.stringify({ users })}\n`);
  await writeVectorHashConfig(hashConfigPath);
  return { exportPath, hashConfigPath };
}
