import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { coreMigrate, described } from './support/binary.js';
import { userCount } from './support/core-calls.js';
import { describeLive, useRealCore, type RealCore } from './support/real-core.js';

/** `core-migrate check` against a real core: what it says of a tenant depends on how a real core refuses a write. */
describeLive('check on a real core', { core: 'memory' }, () => {
  let core: RealCore;
  let dir: string;

  beforeAll(async () => {
    [core, dir] = await Promise.all([useRealCore({ core: 'memory' }), mkdtemp(join(tmpdir(), 'real-core-check-'))]);
  });
  afterAll(async () => {
    await core?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('passes for the default tenant and every identity call, and refuses a tenant the core lacks (exit 3); nothing is written', async () => {
    const check = await coreMigrate(['check', '--core', core.url, '--json'], dir);
    expect(check.code, described(check)).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({
      ok: true,
      identityFeatures: { mapping: true, verification: true, metadata: true, lookup: true, removal: true },
    });

    const missing = await coreMigrate(['check', '--core', core.url, '--tenant', 'no-such-tenant'], dir);
    expect(missing.code, described(missing)).toBe(3);
    expect(missing.stdout + missing.stderr).toContain('no-such-tenant');
    expect(await userCount(core.url)).toBe(0);
  });
});
