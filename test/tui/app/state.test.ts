import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings } from '../../../core-client/src/settings/setting-problem.js';
import { MigrationSettingsSchema } from '../../../core-client/src/settings/settings.js';
import { draftFromSettings, settingsInputOfDraft } from '../../../tui/src/app/draft.js';
import { commandLines } from '../../../tui/src/app/leaving.js';
import { appReducer, initialAppState } from '../../../tui/src/app/state.js';
import { invocationFor } from '../../../tui/src/invocation.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-state-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("the app's fields and the settings", () => {
  it('hold the same run: settings → fields → settings gives back every setting', () => {
    const settings = MigrationSettingsSchema.parse({
      file: 'users.csv',
      format: 'csv',
      map: ['email=E-Mail', 'sourceId=Legacy ID'],
      providerMap: ['oidc.acme=acme'],
      stripPrefix: ['exact:{x}'],
      core: ['http://a:3567', 'http://b:3567'],
      tenant: 'eu',
      concurrency: 8,
      dryRun: true,
      verifyCredentials: 'known.txt',
      keepIds: false,
      existing: 'replace',
      disabled: 'import',
      duplicates: 'last-wins',
    });
    expect(parseSettings(settingsInputOfDraft(draftFromSettings(settings)))).toEqual(settings);
  });

  it('a changed core makes the pre-flight stale; a changed export, the detected format; nothing else does', () => {
    const start = initialAppState({ settings: MigrationSettingsSchema.parse({ file: 'a.json' }), invocation: 'core-migrate' });
    const checked = appReducer(start, {
      type: 'preflightFinished',
      result: { target: 't', report: { ok: true, target: 't', steps: [] }, sources: 's' },
    });
    expect(appReducer(checked, { type: 'draft', patch: { concurrency: '4' } }).preflight.state).toBe('done');
    expect(appReducer(checked, { type: 'draft', patch: { core: 'http://other:3567' } }).preflight.state).toBe('idle');
    const detected = appReducer(start, { type: 'detected', file: 'a.json', result: 'firebase-json', fields: [] });
    expect(appReducer(detected, { type: 'draft', patch: { journal: 'j' } }).detected.state).toBe('done');
    expect(appReducer(detected, { type: 'draft', patch: { file: 'b.json' } }).detected.state).toBe('idle');
  });
});

describe('the command printed to go on', () => {
  const args = [
    'push',
    'my users.json',
    '--hash-config',
    '/a/very/long/path/to/hash_config.txt',
    '--core',
    'http://127.0.0.1:3567',
    '--dry-run',
    '--journal',
    '/a/very/long/path/journal.ndjson',
  ];

  it('is one line when it fits', () => {
    expect(commandLines('core-migrate', args, 300)).toEqual([
      "core-migrate push 'my users.json' --hash-config /a/very/long/path/to/hash_config.txt --core http://127.0.0.1:3567 --dry-run --journal /a/very/long/path/journal.ndjson",
    ]);
  });

  it('on a narrow screen never parts a flag from its value, and continues each line with \\ so it pastes whole', () => {
    const lines = commandLines('core-migrate', args, 50);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(line.endsWith(' \\')).toBe(true);
    for (const [flag, value] of [
      ['--hash-config', '/a/very/long/path/to/hash_config.txt'],
      ['--core', 'http://127.0.0.1:3567'],
      ['--journal', '/a/very/long/path/journal.ndjson'],
    ]) {
      expect(lines.find((line) => line.includes(flag ?? ''))).toContain(`${flag ?? ''} ${value ?? ''}`);
    }
    expect(lines.join(' ').replace(/ \\ +/g, ' ')).toBe(
      "core-migrate push 'my users.json' --hash-config /a/very/long/path/to/hash_config.txt --core http://127.0.0.1:3567 --dry-run --journal /a/very/long/path/journal.ndjson",
    );
  });
});

describe('how the operator starts core-migrate again', () => {
  it('is core-migrate when it is on their PATH, and npx core-migrate when only npm put it there', async () => {
    const installed = join(folder, 'bin');
    const local = join(folder, 'node_modules', '.bin');
    for (const dir of [installed, local]) {
      await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
      await writeFile(join(dir, 'core-migrate'), '#!/bin/sh\n');
      await chmod(join(dir, 'core-migrate'), 0o755);
    }
    expect(invocationFor({ PATH: [local, '/usr/bin'].join(delimiter) })).toBe('npx core-migrate');
    expect(invocationFor({ PATH: [local, installed].join(delimiter) })).toBe('core-migrate');
    expect(invocationFor({})).toBe('npx core-migrate');
  });
});
