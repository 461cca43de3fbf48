import { CORE_PORT, type Database } from './config.js';

/** The name the PostgreSQL container answers to on the stack's Docker network. */
export const POSTGRES_HOST_ALIAS = 'postgres';
export const POSTGRES_PORT = 5432;
export const POSTGRES_USER = 'core';
export const POSTGRES_DATABASE = 'core';
export const POSTGRES_DATA_PATH = '/var/lib/postgresql/data';

export interface CoreEnvironmentInput {
  apiKey: string;
  signerKey?: string | undefined;
  database: Database;
  postgresPassword?: string | undefined;
}

/**
 * The core container's environment. Without POSTGRESQL_* settings the core runs its in-memory database,
 * so "memory" is expressed by their absence. The separate POSTGRESQL_* values avoid URL-escaping a password.
 */
export function coreEnvironment(input: CoreEnvironmentInput): string[] {
  const envs = [`API_KEYS=${input.apiKey}`, 'DISABLE_TELEMETRY=true'];
  // Under both names: the contract's, and the one a core in the field reads (core-client's contract/names.ts). The
  // push learns which scrypt name the core takes, but the core must find its key under its own name.
  if (input.signerKey !== undefined) {
    envs.push(`VENDOR_PASSWORD_HASHING_SIGNER_KEY=${input.signerKey}`, `FIREBASE_PASSWORD_HASHING_SIGNER_KEY=${input.signerKey}`);
  }
  if (input.database === 'postgresql') {
    if (input.postgresPassword === undefined) {
      throw new Error('The PostgreSQL password is missing although the database is postgresql; this is a bug in infra/.');
    }
    envs.push(
      `POSTGRESQL_HOST=${POSTGRES_HOST_ALIAS}`,
      `POSTGRESQL_PORT=${POSTGRES_PORT}`,
      `POSTGRESQL_USER=${POSTGRES_USER}`,
      `POSTGRESQL_PASSWORD=${input.postgresPassword}`,
      `POSTGRESQL_DATABASE_NAME=${POSTGRES_DATABASE}`,
    );
  }
  return envs;
}

export function postgresEnvironment(password: string): string[] {
  return [`POSTGRES_USER=${POSTGRES_USER}`, `POSTGRES_PASSWORD=${password}`, `POSTGRES_DB=${POSTGRES_DATABASE}`];
}

/**
 * GET /hello from inside the container. The core's image is not guaranteed to ship curl or wget, but it runs
 * its JVM from a bash entrypoint, so bash is there; bash's /dev/tcp opens the socket with no extra binary.
 * HTTP/1.0 makes the core close the connection after answering, so grep sees the whole reply and ends.
 */
export const CORE_HEALTH_PROBE =
  `exec 3<>/dev/tcp/127.0.0.1/${CORE_PORT} && ` + `printf 'GET /hello HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && ` + `grep -q Hello <&3`;

export const coreHealthcheck = {
  tests: ['CMD', 'bash', '-c', CORE_HEALTH_PROBE],
  interval: '10s',
  timeout: '5s',
  retries: 6,
  // The JVM and the database migrations need a while on first start.
  startPeriod: '30s',
};

export const postgresHealthcheck = {
  tests: ['CMD', 'pg_isready', '-U', POSTGRES_USER, '-d', POSTGRES_DATABASE],
  interval: '5s',
  timeout: '5s',
  retries: 10,
  startPeriod: '10s',
};

/** Seconds `pulumi up` waits for a container to report healthy before it fails the update. */
export const WAIT_FOR_HEALTHY_SECONDS = 180;
