import { createHash } from 'node:crypto';

/** A `postgresql://` (or `postgres://`) URL names a database; anything else given as an export is a file's path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** A URL with a password in it: refused as a setting, since the command line that repeats a run would show it. */
export function postgresUrlHasPassword(location: string): boolean {
  return /^postgres(ql)?:\/\/[^/@]*:[^/@]*@/i.test(location);
}

/** A PostgreSQL URL as it can be shown: without its password. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'a PostgreSQL URL that does not parse';
  }
}

/**
 * The URL to connect with: the password comes from the environment (`PGPASSWORD`), as for every PostgreSQL client, not
 * from the URL the operator gives (which is shown). `pg` lets a URL's fields override its own options, so it goes in.
 */
export function postgresConnectionString(url: string, env: NodeJS.ProcessEnv): string {
  const password = env['PGPASSWORD'];
  if (password === undefined) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password === '') parsed.password = encodeURIComponent(password);
    return parsed.toString();
  } catch {
    return url;
  }
}

interface DatabaseAddress {
  host: string;
  port: string;
  database: string;
}

function addressOf(url: string): DatabaseAddress | undefined {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    return { host: parsed.hostname.toLowerCase(), port: parsed.port === '' ? '5432' : parsed.port, database };
  } catch {
    return undefined;
  }
}

/**
 * What a journal names a database source by: which database it is (host, port, name), never what it holds, which
 * changes between runs; not the user or the password either. A resume of a stopped push reads the same database
 * again, changed or not: the journal's keys (the rows' ids) and digests say what is done.
 */
export function databaseFingerprint(url: string): string {
  const address = addressOf(url);
  const text = address === undefined ? url : `${address.host}:${address.port}/${address.database}`;
  return `database:sha256:${createHash('sha256').update(`core-migrate-database-source-v1\n${text}`).digest('hex')}`;
}

/** A name for the files a run writes about a database (its report, its journal): `<host>-<database>`. */
export function databaseFileStem(url: string): string {
  const address = addressOf(url);
  const stem = address === undefined ? 'database' : `${address.host}-${address.database === '' ? 'postgres' : address.database}`;
  return stem.replace(/[^A-Za-z0-9._-]+/g, '_');
}
