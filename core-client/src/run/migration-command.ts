import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseJournalHeader } from '../journal/journal.js';
import { sourceFingerprint } from '../push/fingerprint.js';
import { migrationSourceFiles } from '../push/migration.js';
import { optionalFrom } from '../optional.js';
import type { MigrationCommand } from './prepare-migration.js';
import { resolveRunPaths } from '../settings/run-paths.js';
import type { MigrationSettings } from '../settings/settings.js';

/**
 * What these settings run in the terminal app: a sync when the journal they name holds account states (version 4)
 * of another export than theirs, so the export is a newer one of the system the journal migrated; else a push (a
 * new one, or the resume of the journal's own). The headless commands are named by the operator instead.
 */
export async function migrationCommandOf(settings: MigrationSettings, cwd: string): Promise<MigrationCommand> {
  if (settings.file === undefined) return 'push';
  const paths = resolveRunPaths(settings, cwd);
  const header = await firstLine(paths.journalPath);
  if (header === undefined) return 'push';
  try {
    const parsed = parseJournalHeader(paths.journalPath, header);
    if (parsed.version < 4) return 'push';
    const files = await migrationSourceFiles(
      paths.sourcePath,
      optionalFrom('auth0PasswordFile', settings.auth0PasswordFile, (file) => resolve(cwd, file)),
    );
    return parsed.source === (await sourceFingerprint(files[0] ?? paths.sourcePath, files.slice(1))) ? 'push' : 'sync';
  } catch {
    // Not a journal, or an export that cannot be read: the push says why, in its own words.
    return 'push';
  }
}

async function firstLine(path: string): Promise<string | undefined> {
  const stream = createReadStream(path, { end: 64 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of lines) return line;
    return undefined;
  } catch {
    return undefined;
  } finally {
    lines.close();
    stream.destroy();
  }
}
