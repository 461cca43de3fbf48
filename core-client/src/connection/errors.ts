import { Problem } from '../problem.js';

/** Why no usable connection could be put together; every sentence says what to do next. */
export type ConnectionErrorKind =
  | 'noCoreUrl'
  | 'noApiKey'
  | 'apiKeyFileUnreadable'
  | 'caFileUnusable'
  | 'invalidCoreUrl'
  | 'invalidTenant'
  | 'invalidApp'
  | 'pulumiMissing'
  | 'pulumiFailed'
  | 'stackOutputsMissing';

/** The settings a connection problem can concern: keys of the settings table, checked where the two meet. */
export type ConnectionSetting = 'core' | 'apiKeyFile' | 'caFile' | 'tenant' | 'app' | 'stack';

const settingOfKind: Record<ConnectionErrorKind, ConnectionSetting> = {
  noCoreUrl: 'core',
  noApiKey: 'apiKeyFile',
  apiKeyFileUnreadable: 'apiKeyFile',
  caFileUnusable: 'caFile',
  invalidCoreUrl: 'core',
  invalidTenant: 'tenant',
  invalidApp: 'app',
  pulumiMissing: 'stack',
  pulumiFailed: 'stack',
  stackOutputsMissing: 'stack',
};

/** A connection problem: `code` says which, `setting` the setting that fixes it, named in `words` as `{setting}`. */
export class ConnectionError extends Problem<ConnectionSetting, ConnectionErrorKind> {
  override readonly name = 'ConnectionError';

  constructor(code: ConnectionErrorKind, words: string) {
    super(code, 'setting', settingOfKind[code], words);
  }
}

export function isConnectionError(value: unknown): value is ConnectionError {
  return value instanceof ConnectionError;
}
