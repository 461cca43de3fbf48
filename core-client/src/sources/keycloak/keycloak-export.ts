import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { optional } from '../../optional.js';
import { isMissingArrayKey, readJsonArrayItems } from '../json/json-array-items.js';
import { otherSystemReason } from '../record-systems.js';
import { SourceError } from '../source-error.js';
import type { SourceRecord } from '../source-user.js';
import { openText } from '../text/open-text.js';
import { keycloakSourceRecord } from './keycloak-user.js';

/**
 * The files `kc.sh export --dir D` writes for a realm: `<realm>-realm.json` (the realm, with its users unless they
 * were exported apart) and, with `--users different_files`, `<realm>-users-<n>.json` (50 users each by default).
 * `--users same_file` writes `<realm>-users-0.json` alone; gzipped copies are read too.
 */
const KEYCLOAK_FILE = /^(.+)-(?:realm|users-(0|[1-9]\d{0,8}))\.json(?:\.gz)?$/;
const USERS_KEY = 'users';

interface FolderEntry {
  realm: string;
  /** The n of `<realm>-users-<n>.json`; undefined for the realm file. */
  usersFile?: number;
  path: string;
}

async function folderEntries(folder: string): Promise<FolderEntry[]> {
  const entries: FolderEntry[] = [];
  const listed = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw new SourceError('unreadable', { file: folder }, `cannot read the folder (${error.code ?? error.message})`, { cause: error });
  });
  for (const entry of listed) {
    const match = KEYCLOAK_FILE.exec(entry.name);
    if (match === null || !entry.isFile()) continue;
    entries.push({ realm: match[1] ?? '', ...optional('usersFile', match[2] === undefined ? undefined : Number(match[2])), path: join(folder, entry.name) });
  }
  // Per realm, its realm file first, then its users files by their number.
  return entries.sort((a, b) => a.realm.localeCompare(b.realm) || (a.usersFile ?? -1) - (b.usersFile ?? -1));
}

export async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The Keycloak files of a folder in the order they are read (empty when it holds none): what a run snapshots and
 * fingerprints. Whether they make one whole export is the reader's to say.
 */
export async function keycloakFolderFiles(folder: string): Promise<string[]> {
  return (await folderEntries(folder)).map((entry) => entry.path);
}

/** One realm's export, whole: a folder of several realms, or with a users file missing, is refused with a sentence. */
async function keycloakExportFiles(folder: string): Promise<string[]> {
  const entries = await folderEntries(folder);
  if (entries.length === 0) {
    throw new SourceError(
      'unknown-format',
      { file: folder },
      'the folder holds no Keycloak export (<realm>-realm.json, <realm>-users-<n>.json): core-migrate reads a folder only as the files kc.sh export writes; give an export file instead',
    );
  }
  const realms = [...new Set(entries.map((entry) => entry.realm))];
  if (realms.length > 1) {
    throw new SourceError(
      'wrong-format',
      { file: folder },
      `the folder holds the exports of ${realms.length} realms (${realms.slice(0, 5).join(', ')}): a migration reads one realm's users; put each realm's files in a folder of their own`,
    );
  }
  const numbers = entries.flatMap((entry) => (entry.usersFile === undefined ? [] : [entry.usersFile]));
  const missing = numbers.findIndex((number, position) => number !== position);
  if (missing !== -1) {
    throw new SourceError(
      'truncated',
      { file: folder },
      `${realms[0] ?? ''}-users-${missing}.json is missing, though the folder has users files up to ${numbers[numbers.length - 1] ?? 0}: the export is incomplete`,
    );
  }
  return entries.map((entry) => entry.path);
}

/**
 * The users of one file of the export. A first user of another system's shape refuses the file: it is no Keycloak
 * export (a later one is refused alone). A realm file whose users were exported apart has none, and says nothing,
 * when the folder's other files hold them.
 */
async function* readKeycloakFile(file: string, part: number | undefined): AsyncGenerator<SourceRecord> {
  let first = true;
  try {
    for await (const item of readJsonArrayItems(file, openText(file), { arrayKey: USERS_KEY })) {
      const location = { file, index: item.index, ...optional('part', part) };
      if ('problem' in item) {
        first = false;
        yield { kind: 'malformed', location, reason: item.problem };
        continue;
      }
      const other = first ? otherSystemReason(item.value, 'Keycloak') : undefined;
      if (other !== undefined) throw new SourceError('wrong-format', location, `not a Keycloak export: its first user is not one: ${other}`);
      first = false;
      yield keycloakSourceRecord(item.value, location);
    }
  } catch (error) {
    if (!isMissingArrayKey(error)) throw error;
    if (part !== undefined) return;
    throw new SourceError(
      'wrong-format',
      { file },
      'the file has no "users" array: a Keycloak realm export holds its users there or, exported with --users different_files, in <realm>-users-<n>.json files beside it: give the folder that holds them',
    );
  }
}

/**
 * A Keycloak realm export: one file (`<realm>-realm.json` with `users`, or one `<realm>-users-<n>.json`), or the folder
 * `kc.sh export --dir` wrote, whose files are read one after another, each numbered as a part of the export.
 */
export async function* readKeycloak(path: string): AsyncGenerator<SourceRecord> {
  if (!(await isFolder(path))) return yield* readKeycloakFile(path, undefined);
  const files = await keycloakExportFiles(path);
  for (const [part, file] of files.entries()) yield* readKeycloakFile(file, part);
}
