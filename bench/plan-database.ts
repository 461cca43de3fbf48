import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import bcryptjs from 'bcryptjs';
import pg from 'pg';
import { startTestPostgres } from '../test/support/embedded-postgres.js';
import { SUPABASE_SCHEMA } from '../test/support/old-system-databases.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

interface ChildMeasure {
  records: number;
  seconds: number;
  peakRssKiB: number;
  /** The live heap after a full GC, every 50,000 records: what the reading holds, without V8's slack. */
  liveHeapMiB: number[];
}

/**
 * Fills `auth.users` with `users` rows in the database itself (generate_series: no row passes through this process),
 * as a Supabase project has them: a bcrypt hash each, metadata, and a Google identity for one user in ten.
 */
async function fillSupabase(url: string, users: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(SUPABASE_SCHEMA);
    const hash = bcryptjs.hashSync('bench password', 4).replace(/^\$2b\$/, '$2a$');
    await client.query(
      `INSERT INTO auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, last_sign_in_at)
       SELECT ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'authenticated', 'authenticated', 'user' || n || '@example.com', $1, now(),
              jsonb_build_object('provider', 'email', 'providers', jsonb_build_array('email'), 'roles', jsonb_build_array('member')),
              jsonb_build_object('full_name', 'User ' || n), now(), now()
       FROM generate_series(1, $2::int) AS n`,
      [hash, users],
    );
    await client.query(
      `INSERT INTO auth.identities (provider_id, user_id, identity_data, provider)
       SELECT 'g-' || n, ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, jsonb_build_object('sub', 'g-' || n), 'google'
       FROM generate_series(10, $1::int, 10) AS n`,
      [users],
    );
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/**
 * Plans Supabase users read from the database itself (a `postgresql://` URL, an embedded PostgreSQL the bench starts),
 * each size in a fresh process on the compiled core-client: the rows come through a cursor a batch at a time, so what
 * the process holds (its live heap after a GC, sampled as it reads) stays the same however many rows it reads.
 */
export async function benchSupabaseDatabasePlan(sizes: readonly number[]): Promise<void> {
  await run(process.execPath, [join(root, 'node_modules/typescript7/bin/tsc'), '-p', 'core-client/tsconfig.build.json'], { cwd: root });
  const server = await startTestPostgres();
  const results: Array<Record<string, string | number>> = [];
  try {
    for (const users of sizes) {
      const url = await server.newDatabase();
      await fillSupabase(url, users);
      const child = join(import.meta.dirname, 'plan-database-child.ts');
      const { stdout } = await run(process.execPath, ['--expose-gc', child, url], { cwd: root, maxBuffer: 1 << 20 });
      const measure = JSON.parse(stdout) as ChildMeasure;
      results.push({
        users,
        'records read': measure.records,
        s: measure.seconds.toFixed(1),
        'records/s': Math.round(measure.records / measure.seconds),
        'peak RSS MiB': (measure.peakRssKiB / 1024).toFixed(0),
        'live heap MiB (each 50,000)': measure.liveHeapMiB.join(' '),
      });
    }
  } finally {
    await server.stop();
  }
  console.log('\nplan: Supabase auth.users (+ auth.identities) read from an embedded PostgreSQL by URL, compiled core-client, one process per size');
  console.table(results);
}
