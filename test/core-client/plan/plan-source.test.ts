import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseHashConfig, type HashConfig } from '../../../core-client/src/hashes/hash-config.js';
import { planSource, type PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { summarisePlan } from '../../../core-client/src/plan/summarise-plan.js';

const bcryptHashes = [
  '$2a$04$Ysj6rkrK6ezLcSgDG3MSsucsWLoW9zxo743ap1duUszVf/Ps1Q7Fi',
  '$2a$04$OLYKkyVrf2FQ7gSu9dfjRuO1M.2Yr0fbOj3xMfWzPVIyh6qmt3ESy',
  '$2a$04$ykDL8ccycEsumSsZ4wDP.unAchs36B7sUw5b6YAz7RDcX5uqALVY.',
];
const bcryptOf = (n: number): string => bcryptHashes[n - 1] ?? '';
const fixtures = join(import.meta.dirname, '../../fixtures/exports');
const hashConfig = parseHashConfig(
  '{"algorithm":"SCRYPT","base64_signer_key":"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==","base64_salt_separator":"Bw==","rounds":8,"mem_cost":14}',
) as HashConfig;

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'plan-source-'));
});

async function ndjson(name: string, lines: unknown[]): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, lines.map((line) => JSON.stringify(line)).join('\n'));
  return path;
}

async function collect(records: AsyncIterable<PlannedRecord>): Promise<PlannedRecord[]> {
  const all: PlannedRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
}

describe('planSource', () => {
  it('keeps the first of two users with the same email after normalisation and names it in the rejection', async () => {
    const path = await ndjson('dupes.ndjson', [
      { email: 'Ada@Example.com', passwordHash: bcryptOf(1) },
      { email: 'bob@example.com', passwordHash: bcryptOf(2) },
      { email: ' ada@example.COM ', passwordHash: bcryptOf(3) },
    ]);
    const records = await collect(planSource(path));
    expect(records.map((record) => record.items[0]?.kind)).toEqual(['passwordImport', 'passwordImport', 'rejection']);
    expect(records[2]?.items[0]).toMatchObject({
      code: 'duplicateEmail',
      email: 'ada@example.com',
      reason: expect.stringContaining(`duplicate of ${path}, line 1`),
    });
  });

  it('with last-wins, imports the last of the duplicates and rejects the earlier ones', async () => {
    const path = await ndjson('dupes-last.ndjson', [
      { email: 'ada@example.com', passwordHash: bcryptOf(1) },
      { email: 'ada@example.com', passwordHash: bcryptOf(2) },
      { email: 'ADA@example.com', passwordHash: bcryptOf(3) },
    ]);
    const records = await collect(planSource(path, { duplicates: 'last-wins' }));
    expect(records.map((record) => record.items[0]?.kind)).toEqual(['rejection', 'rejection', 'passwordImport']);
    expect(records[0]?.items[0]).toMatchObject({ code: 'duplicateEmail', reason: expect.stringContaining('line 3') });
    expect(records[2]?.items[0]).toMatchObject({ body: { passwordHash: bcryptOf(3) } });
  });

  it('refuses a second record with the same old id as a duplicate of the first, naming both places; an empty old id is none', async () => {
    const path = await ndjson('dupes-id.ndjson', [
      { id: 'u-1', email: 'a@example.com', passwordHash: bcryptOf(1) },
      { id: 'u-1', email: 'b@example.com', passwordHash: bcryptOf(2), thirdPartyId: 'google', thirdPartyUserId: 'g-b' },
      { id: '', email: 'c@example.com', passwordHash: bcryptOf(3) },
      { id: '  ', email: 'd@example.com', passwordHash: bcryptOf(1) },
    ]);
    const records = await collect(planSource(path));
    expect(records[0]?.items.map((item) => item.kind)).toEqual(['passwordImport']);
    // Every account of the later record is refused: none may become a core user fighting for the same mapping.
    expect(records[1]?.items).toEqual([
      expect.objectContaining({ code: 'duplicateSourceId', sourceId: 'u-1', reason: expect.stringContaining(`${path}, line 1`) }),
      expect.objectContaining({ code: 'duplicateSourceId', sourceId: 'u-1' }),
    ]);
    expect(records[2]?.items[0]).toMatchObject({ kind: 'passwordImport', identity: { carriesSourceId: false } });
    expect(records[3]?.items[0]).toMatchObject({ kind: 'passwordImport' });
    expect((await summarisePlan(path)).duplicates).toBe(2);

    const last = await collect(planSource(path, { duplicates: 'last-wins' }));
    expect(last[0]?.items[0]).toMatchObject({ code: 'duplicateSourceId', reason: expect.stringContaining('line 2') });
    expect(last[1]?.items.map((item) => item.kind)).toEqual(['passwordImport', 'thirdPartySignInUp']);
  });

  it('finds a third-party account linked twice', async () => {
    const path = await ndjson('dupes-tp.ndjson', [
      { email: 'a@example.com', thirdPartyId: 'google', thirdPartyUserId: '1' },
      { email: 'b@example.com', thirdPartyId: 'google', thirdPartyUserId: '1' },
      { email: 'c@example.com', thirdPartyId: 'github', thirdPartyUserId: '1' },
    ]);
    const records = await collect(planSource(path));
    expect(records.map((record) => record.items[0]?.kind)).toEqual(['thirdPartySignInUp', 'rejection', 'thirdPartySignInUp']);
    expect(records[1]?.items[0]).toMatchObject({ code: 'duplicateThirdPartyUser' });
  });

  it('plans the Firebase JSON fixture: scrypt users with the hash config, providers mapped, phone users as passwordless users', async () => {
    const summary = await summarisePlan(join(fixtures, 'firebase/users.json'), { hashConfig });
    expect(summary.records).toBe(4);
    expect(summary.byFamily.vendor_scrypt).toBe(1);
    // fb-3's exported hash has a length no base64 encoder produces: refused before the push, not after.
    expect(summary.rejectionsByCode).toContainEqual(expect.objectContaining({ code: 'unusableHash', count: 1 }));
    expect(summary.byProvider).toEqual({ google: 1, github: 1, facebook: 1 });
    expect(summary.withoutCredentials).toBe(0);
    expect(summary.passwordlessByLogin).toEqual({ phone: 1, email: 0 });
    expect(summary.operations).toBe(summary.passwordImports + summary.thirdPartySignInUps + summary.passwordlessSignInUps + summary.rejected);
  });

  it('plans an Auth0 export joined with its password file, mapping Auth0 connection names', async () => {
    const summary = await summarisePlan(join(fixtures, 'auth0/users.ndjson'), {
      format: 'auth0',
      auth0PasswordFile: join(fixtures, 'auth0/passwords.ndjson'),
    });
    expect(summary.byProvider).toMatchObject({ google: 1, github: 1 });
    expect(summary.passwordImports).toBeGreaterThan(0);
    expect(summary.operations).toBe(summary.passwordImports + summary.thirdPartySignInUps + summary.passwordlessSignInUps + summary.rejected);
    expect(JSON.stringify(summary)).not.toMatch(/\$2[aby]\$10\$/);
  });

  it('counts every record of a file with bad records, never stopping at one', async () => {
    const summary = await summarisePlan(join(fixtures, 'generic/users.ndjson'));
    expect(summary.records).toBeGreaterThanOrEqual(6);
    expect(summary.rejectionsByCode.map((group) => group.code)).toContain('malformedRecord');
    expect(summary.passwordImports).toBeGreaterThanOrEqual(1);
    expect(summary.thirdPartySignInUps).toBeGreaterThanOrEqual(1);
  });
});
