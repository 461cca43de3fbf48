import type { CoreClientConfigError } from '../http/target.js';
import { Problem } from '../problem.js';

/** Why no usable connection could be put together; every sentence says what to do next. */
export type ConnectionErrorKind =
  'noCoreUrl' | 'noApiKey' | 'apiKeyFileUnreadable' | 'caFileUnusable' | 'pulumiMissing' | 'pulumiFailed' | 'stackOutputsMissing';

/** The settings a connection problem can concern: keys of the settings table, checked where the two meet. */
export type ConnectionSetting = 'core' | 'apiKeyFile' | 'caFile' | 'tenant' | 'app' | 'stack';

const settingOfKind: Record<ConnectionErrorKind, ConnectionSetting> = {
  noCoreUrl: 'core',
  noApiKey: 'apiKeyFile',
  apiKeyFileUnreadable: 'apiKeyFile',
  caFileUnusable: 'caFile',
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

/** Why no connection: a problem of its own, or the client's refusal of the address, tenant or app it was given. */
export type ConnectionProblem = ConnectionError | CoreClientConfigError;

export function isConnectionError(value: unknown): value is ConnectionError {
  return value instanceof ConnectionError;
}
