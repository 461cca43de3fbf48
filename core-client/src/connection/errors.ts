/** Why no usable connection could be put together; every message says what to do next. */
export type ConnectionErrorKind =
  'noCoreUrl' | 'noApiKey' | 'apiKeyFileUnreadable' | 'caFileUnusable' | 'invalidSetting' | 'pulumiMissing' | 'pulumiFailed' | 'stackOutputsMissing';

export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';

  constructor(
    readonly kind: ConnectionErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export function isConnectionError(value: unknown): value is ConnectionError {
  return value instanceof ConnectionError;
}
