import { link, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHashConfig } from '../../../core-client/src/hashes/hash-config.js';
import { Secret } from '../../../core-client/src/secret.js';
import { MigrationSettingsSchema } from '../../../core-client/src/settings/settings.js';
import { savedHashParametersPath, saveHashParameters } from '../../../core-client/src/run/hash-parameters.js';
import { completePath } from '../../../tui/src/app/path-completion.js';
import { typedHashConfig } from '../../../tui/src/app/plan-status.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-saved-'));
  await writeFile(join(folder, '.hidden'), '');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const signerKey = 'c2lnbmVyLWtleS1mb3ItdGhlLXRlc3Q=';
const typed = {
  memCost: '14',
  rounds: '8',
  saltSeparator: 'Bw==',
  signerKey: new Secret(signerKey),
  pasted: new Secret(''),
  pasteNote: '',
  pasteFailed: false,
};

function config() {
  const parsed = typedHashConfig(typed);
  if (parsed.state !== 'parsed') throw new Error('the typed parameters do not parse');
  return parsed.config;
}

describe('the hash parameters typed in the app', () => {
  it('are read by core-client; a wrong one is named, never with the signer key', () => {
    expect(config()).toMatchObject({ memCost: 14, rounds: 8, saltSeparator: 'Bw==' });
    const wrong = typedHashConfig({ ...typed, memCost: '99' });
    expect(wrong.state).toBe('invalid');
    if (wrong.state === 'invalid') {
      expect(wrong.sentence).toMatch(/mem_cost/);
      expect(wrong.sentence).not.toContain(signerKey);
    }
  });

  it('are saved beside the journal for the resume command, without the signer key', async () => {
    const settings = MigrationSettingsSchema.parse({ file: 'users.json', journal: 'journal.ndjson' });
    const saved = await saveHashParameters(config(), settings, folder);
    expect(saved).toBe(savedHashParametersPath(join(folder, 'journal.ndjson')));
    const text = await readFile(savedHashParametersPath(join(folder, 'journal.ndjson')), 'utf8');
    expect(text).not.toContain(signerKey);
    expect(parseHashConfig(text)).toMatchObject({ memCost: 14, rounds: 8, saltSeparator: 'Bw==' });
  });

  it('are never saved over an input of the run (also through a hard link) or over its report', async () => {
    const exportPath = join(folder, 'precious-export.ndjson');
    await writeFile(exportPath, '{"email":"a@example.com"}\n');
    await link(exportPath, savedHashParametersPath(join(folder, 'hard-linked-journal.ndjson')));
    const refused = await saveHashParameters(config(), MigrationSettingsSchema.parse({ file: exportPath, journal: 'hard-linked-journal.ndjson' }), folder);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/^The saved hash parameters .* would overwrite the export .*same file \(through a link\)/);
    // Saved beside the journal: the journal's setting moves them.
    expect(refused).toMatchObject({ code: 'outputRefused', kind: 'setting', setting: 'journal' });
    expect(await readFile(exportPath, 'utf8')).toBe('{"email":"a@example.com"}\n');

    const overReport = await saveHashParameters(
      config(),
      MigrationSettingsSchema.parse({ file: exportPath, journal: 'other.ndjson', report: 'other.ndjson.hash-config.json' }),
      folder,
    );
    expect((overReport as Error).message).toMatch(/would overwrite the report/);
  });

  it('are never written through a symbolic link placed where they go', async () => {
    const target = join(folder, 'precious.txt');
    await writeFile(target, 'keep me\n');
    await symlink(target, savedHashParametersPath(join(folder, 'linked-journal.ndjson')));
    const refused = await saveHashParameters(config(), MigrationSettingsSchema.parse({ file: 'users.json', journal: 'linked-journal.ndjson' }), folder);
    expect((refused as Error).message).toMatch(/symbolic link/);
    expect(await readFile(target, 'utf8')).toBe('keep me\n');
  });
});

describe('path completion', () => {
  it('completes relative to the working directory and hides dot-files unless asked', async () => {
    await writeFile(join(folder, 'export-a.json'), '{}');
    expect(await completePath('export-', folder)).toMatchObject({ completed: 'export-a.json' });
    expect((await completePath('.h', folder)).completed).toBe('.hidden');
    expect(await completePath('missing/x', folder)).toEqual({ completed: 'missing/x', candidates: [], more: 0 });
  });
});
