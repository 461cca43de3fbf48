import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readSource } from '../core-client/src/sources/read-source.js';

const run = promisify(execFile);

const LINES_PER_CHUNK = 1000;
/** Every n-th user signs in with Google only (no hash), every n-th database user is joined through alt_id. */
const SOCIAL_EVERY = 20;
const ALT_ID_EVERY = 10;
/** One hash entry in a hundred has no user: a password-only user read after the users. */
const ORPHAN_EVERY = 100;
const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

interface Auth0JoinRun {
  users: number;
  hashEntries: number;
  fileMiB: number;
  seconds: number;
  recordsPerSecond: number;
  peakRssMiB: number;
}

function objectId(index: number): string {
  return (0x60425dc4).toString(16) + index.toString(16).padStart(16, '0');
}

function isSocial(index: number): boolean {
  return index % SOCIAL_EVERY === SOCIAL_EVERY - 1;
}

function joinIdOf(index: number): string {
  return index % ALT_ID_EVERY === 0 ? `legacy-${index}` : objectId(index);
}

/** A bcrypt-shaped string (60 characters) that differs per user; the bytes never need to verify. */
function bcryptLike(index: number): string {
  let state = (index * 2654435761) >>> 0;
  let body = '';
  for (let at = 0; at < 53; at += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    body += BCRYPT_ALPHABET[state >>> 26] ?? '.';
  }
  return `$2b$10$${body}`;
}

async function* userLines(users: number): AsyncGenerator<string> {
  for (let start = 0; start < users; start += LINES_PER_CHUNK) {
    const lines: string[] = [];
    for (let index = start; index < Math.min(users, start + LINES_PER_CHUNK); index += 1) {
      const social = isSocial(index);
      const provider = social ? 'google-oauth2' : 'auth0';
      const id = social ? String(100000000000 + index) : joinIdOf(index);
      lines.push(
        JSON.stringify({
          user_id: `${provider}|${id}`,
          email: `user${index}@example.com`,
          email_verified: index % 3 !== 0,
          identities: [{ provider, user_id: id, connection: social ? 'google-oauth2' : 'Username-Password-Authentication', isSocial: social }],
          created_at: '2021-03-05T16:30:28.295Z',
        }),
      );
    }
    yield `${lines.join('\n')}\n`;
  }
}

function hashLine(index: number): string {
  return JSON.stringify({
    _id: { $oid: objectId(index) },
    ...(index % ALT_ID_EVERY === 0 ? { alt_id: `legacy-${index}` } : {}),
    email: `user${index}@example.com`,
    email_verified: index % 3 !== 0,
    passwordHash: bcryptLike(index),
    password_set_date: { $date: '2021-03-05T16:30:28.295Z' },
    tenant: 'bench',
    connection: 'Username-Password-Authentication',
    _tmp_is_unique: true,
  });
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}

/**
 * The hash file in an order unrelated to the user export's (a stride through the ids), so every join is a
 * read somewhere else in the file: the worst case for reading lines back, not the friendly same-order one.
 */
async function* hashLines(users: number): AsyncGenerator<string> {
  const entries = users + Math.floor(users / ORPHAN_EVERY);
  let stride = 7_919;
  while (greatestCommonDivisor(stride, entries) !== 1) stride += 2;
  for (let start = 0; start < entries; start += LINES_PER_CHUNK) {
    const lines: string[] = [];
    for (let line = start; line < Math.min(entries, start + LINES_PER_CHUNK); line += 1) {
      const index = (line * stride) % entries;
      if (!isSocial(index)) lines.push(hashLine(index));
    }
    if (lines.length > 0) yield `${lines.join('\n')}\n`;
  }
}

async function writeLines(path: string, lines: AsyncGenerator<string>): Promise<void> {
  // pipeline() waits for the file to drain before pulling the next chunk: memory stays flat while writing.
  await pipeline(Readable.from(lines), createWriteStream(path));
}

/**
 * Reads a synthetic Auth0 user export joined with its password-hash export (N users, 5% social, 1% extra
 * password-only entries) in a fresh process, and prints records/s and the peak RSS of the reading.
 */
export async function benchAuth0Join(users: number): Promise<Auth0JoinRun> {
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-auth0-'));
  try {
    const usersFile = join(folder, 'users.ndjson');
    const hashFile = join(folder, 'passwords.ndjson');
    await writeLines(usersFile, userLines(users));
    await writeLines(hashFile, hashLines(users));
    const sizes = await Promise.all([stat(usersFile), stat(hashFile)]);
    const { stdout } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(import.meta.url), usersFile, hashFile], {
      maxBuffer: 1 << 20,
    });
    const measured = JSON.parse(stdout) as { records: number; withHash: number; seconds: number; peakRssKiB: number };
    const result: Auth0JoinRun = {
      users,
      hashEntries: measured.withHash,
      fileMiB: (sizes[0].size + sizes[1].size) / 2 ** 20,
      seconds: measured.seconds,
      recordsPerSecond: measured.records / measured.seconds,
      peakRssMiB: measured.peakRssKiB / 1024,
    };
    console.log('\nauth0 join: user export + password-hash export (hash file in another order), one process');
    console.table([
      {
        users: result.users,
        'hash entries': result.hashEntries,
        'files MiB': result.fileMiB.toFixed(0),
        seconds: result.seconds.toFixed(1),
        'records/s': Math.round(result.recordsPerSecond),
        'peak RSS MiB': result.peakRssMiB.toFixed(0),
      },
    ]);
    return result;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The child: reads the two files given and reports what it took. */
async function readInChild(usersFile: string, hashFile: string): Promise<void> {
  const started = performance.now();
  let records = 0;
  let withHash = 0;
  for await (const record of readSource(usersFile, { format: 'auth0', auth0PasswordFile: hashFile })) {
    records += 1;
    if (record.kind === 'user' && record.passwordHash !== undefined) withHash += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(JSON.stringify({ records, withHash, seconds, peakRssKiB: process.resourceUsage().maxRSS }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [usersFile, hashFile] = process.argv.slice(2);
  if (usersFile === undefined || hashFile === undefined) throw new Error('usage: auth0-join.ts <users.ndjson> <passwords.ndjson>');
  await readInChild(usersFile, hashFile);
}
