import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { coreMigrate, described } from './support/binary.js';
import { userCount } from './support/core-calls.js';
import { oldUsers, writeFirebaseExport } from './support/exports.js';
import { describeLive, useRealCore, type RealCore } from './support/real-core.js';

/** A real core without the scrypt variant's signer key answers 500 to every such import: the push must stop at the first. */
describeLive('a Firebase push to a real core without the signer key', { core: 'noSignerKey' }, () => {
  let core: RealCore;
  let dir: string;

  beforeAll(async () => {
    [core, dir] = await Promise.all([useRealCore({ core: 'noSignerKey' }, { logRequests: true }), mkdtemp(join(tmpdir(), 'real-core-signer-key-'))]);
  });
  afterAll(async () => {
    await core?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('stops after one import with the sentence that names the setting (exit 2), and creates no user', async () => {
    const exported = await writeFirebaseExport(dir, 'users.json', oldUsers('fb', 10));
    const push = await coreMigrate(['push', ...exported, '--core', core.url], dir);
    expect(push.code, described(push)).toBe(2);
    expect(push.stdout + push.stderr).toContain('no signer key: set VENDOR_PASSWORD_HASHING_SIGNER_KEY');
    const imports = (await core.requestsReceived()).filter((line) => line.includes('"passwordHash":"$f_scrypt$'));
    expect(imports).toHaveLength(1);
    expect(await userCount(core.url)).toBe(0);
  });
});
