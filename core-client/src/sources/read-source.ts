import { readAuth0 } from './auth0/auth0.js';
import { readClerkCsv } from './clerk/clerk-csv.js';
import { readCognitoCsv } from './cognito/cognito-csv.js';
import { readCognitoJson } from './cognito/cognito-json.js';
import type { PostgresSnapshot } from './database/postgres-snapshot.js';
import { isPostgresUrl } from './database/postgres-url.js';
import { detectFormat } from './detect-format.js';
import { readFirebaseCsv } from './firebase/firebase-csv.js';
import { readFirebaseJson } from './firebase/firebase-json.js';
import { readCsv } from './generic/csv.js';
import { type FieldMapping, defaultFieldMapping } from './generic/field-mapping.js';
import { readJsonArray } from './generic/json-array.js';
import { readNdjson } from './generic/ndjson.js';
import { readKeycloak } from './keycloak/keycloak-export.js';
import { readOkta } from './okta/okta-json.js';
import { SourceError, type SourceSetting } from './source-error.js';
import type { SourceFormat } from './source-format.js';
import type { SourceRecord } from './source-user.js';
import { readSupabaseFile } from './supabase/supabase-files.js';
import { DEFAULT_MAX_LINE_BYTES } from './text/lines.js';

export interface OpenSourceOptions {
  /** Skips detection. */
  format?: SourceFormat;
  /** For the generic formats (ndjson, json-array, csv); the contract's names when absent. */
  mapping?: FieldMapping;
  /** Auth0 only: the password-hash export to join with the user export. */
  auth0PasswordFile?: string;
  /**
   * A database source (a `postgresql://` URL): the run's one read-only transaction, so that every read of the run (the
   * count, the push, a sync's two passes) reads the same users. Without it, each read has a transaction of its own.
   */
  database?: PostgresSnapshot;
}

/**
 * Streams the records of an export: a SourceUser per good record, a MalformedRecord per broken one. A broken
 * file ends the iteration with a SourceError naming the place, and the setting that fixes it. `path` is a file's
 * path, or a `postgresql://` URL of a database whose users are read where they live.
 */
export async function* readSource(path: string, options: OpenSourceOptions = {}): AsyncGenerator<SourceRecord> {
  try {
    yield* readRecords(path, options);
  } catch (error) {
    throw error instanceof SourceError ? error.concerning(settingOfSourceError(error, options)) : error;
  }
}

/** Auth0's password-hash file has its own setting; a forced format that does not fit is the format's fault. */
function settingOfSourceError(error: SourceError, options: OpenSourceOptions): SourceSetting {
  if (error.location.file === options.auth0PasswordFile) return 'auth0PasswordFile';
  if (error.reason === 'wrong-format' && options.format !== undefined) return 'format';
  return error.setting ?? 'file';
}

async function* readRecords(path: string, options: OpenSourceOptions): AsyncGenerator<SourceRecord> {
  if (isPostgresUrl(path)) {
    // The PostgreSQL driver is loaded only for a database, as the SQLite one only for its file: no other run loads them.
    const { readDatabase } = await import('./read-database.js');
    return yield* readDatabase(path, options.format, options.database);
  }
  const mapping = options.mapping ?? defaultFieldMapping;
  const format = options.format ?? (await detectFormat(path, DEFAULT_MAX_LINE_BYTES, mapping));
  if (format instanceof SourceError) throw format;
  switch (format) {
    case 'firebase-json':
      return yield* readFirebaseJson(path);
    case 'firebase-csv':
      return yield* readFirebaseCsv(path);
    case 'auth0':
      return yield* readAuth0(path, options.auth0PasswordFile);
    case 'ndjson':
      return yield* readNdjson(path, mapping);
    case 'json-array':
      return yield* readJsonArray(path, mapping);
    case 'csv':
      return yield* readCsv(path, mapping);
    case 'cognito-json':
      return yield* readCognitoJson(path);
    case 'cognito-csv':
      return yield* readCognitoCsv(path);
    case 'clerk':
      return yield* readClerkCsv(path);
    case 'keycloak':
      return yield* readKeycloak(path);
    case 'okta':
      return yield* readOkta(path);
    case 'supabase':
      return yield* readSupabaseFile(path);
    case 'better-auth':
      return yield* (await import('./better-auth/better-auth-sqlite.js')).readBetterAuthSqlite(path);
  }
}
