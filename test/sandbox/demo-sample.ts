/**
 * The demo's sample export: a small Firebase auth:export JSON with all three hash families, third-party users and
 * a few broken records, whose hashes really match known passwords. Made at demo time with small costs, so no
 * secret or slow fixture is checked in; the whole-walk test uses it too.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { argon2id, bcrypt } from 'hash-wasm';
import { makeVendorScryptHash } from '../support/vendor-scrypt-maker.js';

export const scryptParameters = { memCost: 14, rounds: 8, saltSeparator: 'Bw==' } as const;

interface DemoUser {
  localId: string;
  email?: string;
  password?: string;
  hash?: (password: string) => Promise<{ passwordHash: string; salt?: string }>;
  rawHash?: string;
  providers?: { providerId: string; rawId: string }[];
}

/** The vendor scrypt variant, made with the same independent maker the hash tests use. */
function vendorScrypt(signerKey: Buffer) {
  return async (password: string) => {
    const salt = randomBytes(12);
    const passwordHash = await makeVendorScryptHash({
      password,
      salt,
      saltSeparator: Buffer.from(scryptParameters.saltSeparator, 'base64'),
      signerKey,
      memCost: scryptParameters.memCost,
      rounds: scryptParameters.rounds,
    });
    return { passwordHash, salt: salt.toString('base64') };
  };
}

const bcryptHash = (prefix: string) => async (password: string) => ({
  passwordHash: prefix + (await bcrypt({ password, salt: randomBytes(16), costFactor: 6, outputType: 'encoded' })),
});
const argon2Hash = async (password: string) => ({
  passwordHash: await argon2id({ password, salt: randomBytes(16), parallelism: 1, iterations: 2, memorySize: 512, hashLength: 32, outputType: 'encoded' }),
});

function demoUsers(signerKey: Buffer): DemoUser[] {
  const scrypt = vendorScrypt(signerKey);
  return [
    { localId: 'u01', email: 'ada@example.com', password: 'analytical-engine', hash: scrypt },
    { localId: 'u02', email: 'grace@example.com', password: 'cobol-1959', hash: scrypt, providers: [{ providerId: 'google.com', rawId: '1040001' }] },
    { localId: 'u03', email: 'alan@example.com', password: 'enigma-bombe', hash: scrypt },
    { localId: 'u04', email: 'edsger@example.com', password: 'goto-harmful', hash: bcryptHash('') },
    { localId: 'u05', email: 'barbara@example.com', password: 'liskov-substitution', hash: bcryptHash('bcrypt$') },
    { localId: 'u06', email: 'donald@example.com', password: 'tex-and-metafont', hash: argon2Hash },
    { localId: 'u07', email: 'margaret@example.com', password: 'apollo-guidance', hash: argon2Hash },
    { localId: 'u08', email: 'linus@example.com', providers: [{ providerId: 'github.com', rawId: '1024025' }] },
    {
      localId: 'u09',
      email: 'tim@example.com',
      providers: [
        { providerId: 'google.com', rawId: '1040002' },
        { providerId: 'github.com', rawId: '1024026' },
      ],
    },
    { localId: 'u10', email: 'broken-bcrypt@example.com', rawHash: '$2a$10$tooShortToBeABcryptHash' },
    { localId: 'u11', email: 'old-md5@example.com', rawHash: '5f4dcc3b5aa765d61d8327deb882cf99' },
    { localId: 'u12', email: 'not-an-email', password: 'whatever-1', hash: bcryptHash('') },
    { localId: 'u13', email: 'nobody@example.com' },
    { localId: 'u14', email: 'ADA@example.com', password: 'analytical-engine', hash: bcryptHash('') },
  ];
}

export interface DemoSample {
  exportPath: string;
  credentialsPath: string;
  hashConfigPath: string;
}

export async function writeDemoSample(folder: string, signerKey: Buffer): Promise<DemoSample> {
  const users = [];
  const credentials: string[] = [];
  for (const user of demoUsers(signerKey)) {
    const hashed = user.hash !== undefined && user.password !== undefined ? await user.hash(user.password) : undefined;
    if (hashed !== undefined && user.email?.includes('@') === true && user.localId !== 'u14') credentials.push(`${user.email} ${user.password}`);
    users.push({
      localId: user.localId,
      ...(user.email === undefined ? {} : { email: user.email, emailVerified: true }),
      ...(hashed === undefined ? (user.rawHash === undefined ? {} : { passwordHash: user.rawHash }) : hashed),
      // Profile data the identity steps keep in the user's metadata (docs/identity.md, "Its profile, in the user's metadata").
      ...(user.email?.includes('@') === true ? { displayName: user.email.split('@')[0] } : {}),
      createdAt: '1700000000000',
      providerUserInfo: (user.providers ?? []).map((provider) => ({ ...provider, email: user.email })),
    });
  }
  const exportPath = join(folder, 'users.json');
  const credentialsPath = join(folder, 'credentials.txt');
  const hashConfigPath = join(folder, 'hash_config.txt');
  await writeFile(exportPath, `${JSON.stringify({ users }, null, 2)}\n`);
  await writeFile(credentialsPath, `${credentials.join('\n')}\n`, { mode: 0o600 });
  const block = [
    'hash_config {',
    '  algorithm: SCRYPT,',
    `  base64_signer_key: ${signerKey.toString('base64')},`,
    `  base64_salt_separator: ${scryptParameters.saltSeparator},`,
    `  rounds: ${scryptParameters.rounds},`,
    `  mem_cost: ${scryptParameters.memCost},`,
    '}',
  ];
  await writeFile(hashConfigPath, `${block.join('\n')}\n`, { mode: 0o600 });
  return { exportPath, credentialsPath, hashConfigPath };
}
