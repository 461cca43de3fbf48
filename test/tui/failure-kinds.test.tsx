import { execFile } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../core-client/src/problem.js';
import { settingName } from '../../core-client/src/settings/setting-flags.js';
import type { MigrationSettingsInput } from '../../core-client/src/settings/settings.js';
import type { AppResult } from '../../tui/src/terminal-app.js';
import { startCoreDouble, type CoreDouble } from '../core-double/index.js';
import { appTestBed } from './support/app-bed.js';
import { keys } from './keys.js';
import { flat, focusedLine, onScreen, press, waitFor, walkToReview } from './support/terminal.js';

const BIN = fileURLToPath(new URL('../../tui/bin/core-migrate.js', import.meta.url));
const bed = appTestBed('failure-kinds');
const size = { columns: 140, rows: 44 };
/** A core that accepts another key than the one the faces send. */
let otherKeyCore: CoreDouble;

beforeAll(async () => {
  otherKeyCore = await startCoreDouble({ apiKeys: ['a-key-nobody-sends-0123456789'] });
});
afterAll(async () => {
  await otherKeyCore.close();
});

interface Exit {
  exitCode: number;
  stderr: string;
}

/** The real `core-migrate` binary, run in the test's folder with the bed's key. */
async function binary(args: string[]): Promise<Exit> {
  try {
    const { stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      cwd: bed.folder(),
      env: { PATH: process.env['PATH'] ?? '', CORE_API_KEY: bed.apiKey },
    });
    return { exitCode: 0, stderr };
  } catch (error) {
    // execFile's error for a non-zero exit carries the exit code and what was written to standard error.
    const exitCode = error instanceof Error && 'code' in error && typeof error.code === 'number' ? error.code : -1;
    const stderr = error instanceof Error && 'stderr' in error && typeof error.stderr === 'string' ? error.stderr : '';
    return { exitCode, stderr };
  }
}

const unusedPort = 'http://127.0.0.1:1';
const lockTheJournal = (): Promise<void> =>
  writeFile(
    join(bed.folder(), 'journal.ndjson.lock'),
    JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command: 'push' }),
  );

interface FailureKind {
  kind: string;
  exitCode: ExitCode;
  /** What to prepare in the folder first. */
  setup?: () => Promise<void>;
  /** The command line (the bed's core is added unless it names one). */
  cli: (core: string) => string[];
  /** Words the command line must say (its flags' terms). */
  cliWords: (string | RegExp)[];
  /**
   * The same failure in the app: where it surfaces (the Connect screen keeps it; the Source screen reads the export
   * and keeps the operator at its field; a push that cannot start says it on the Push screen and quits with the exit
   * code), the words in the app's terms, and the field Enter leads to.
   */
  app?: { settings: MigrationSettingsInput; coreUrl?: () => string; at: 'connect' | 'source' | 'push'; words: string[]; field?: string };
}

const kinds: FailureKind[] = [
  {
    kind: 'a bad setting value',
    exitCode: ExitCode.usageOrConfiguration,
    cli: (core) => ['push', 'users.json', '--hash-config', 'hash_config.txt', '--core', core, '--concurrency', '0'],
    cliWords: ['--concurrency must be a whole number from 1 to 1024, not "0"'],
  },
  {
    kind: 'a missing file',
    exitCode: ExitCode.usageOrConfiguration,
    cli: (core) => ['push', 'users.json', '--hash-config', 'hash_config.txt', '--core', core, '--verify-credentials', 'missing.txt'],
    cliWords: [/--verify-credentials \S*missing\.txt: cannot read the file \(ENOENT\)/],
  },
  {
    kind: 'an unreadable CA file, named in each face by its own name for the setting',
    exitCode: ExitCode.usageOrConfiguration,
    cli: (core) => ['push', 'users.json', '--hash-config', 'hash_config.txt', '--core', core, '--ca-file', 'no-ca.pem'],
    cliWords: ['cannot be read (ENOENT): check the path given to --ca-file and its permissions.'],
    app: {
      settings: { caFile: 'no-ca.pem' },
      at: 'connect',
      words: [`cannot be read (ENOENT): check the path given to ${settingName('caFile', 'app')} and its permissions.`],
    },
  },
  {
    kind: 'a tenant id the core cannot take',
    exitCode: ExitCode.usageOrConfiguration,
    cli: (core) => ['push', 'users.json', '--hash-config', 'hash_config.txt', '--core', core, '--tenant', 'Tenant_A'],
    cliWords: ['The tenant id "Tenant_A" cannot be used'],
    app: { settings: { tenant: 'Tenant_A' }, at: 'connect', words: ['The tenant id "Tenant_A" cannot be used'] },
  },
  {
    kind: 'a core unreachable',
    exitCode: ExitCode.coreUnreachableOrKeyRefused,
    cli: () => ['push', 'users.json', '--hash-config', 'hash_config.txt', '--core', unusedPort],
    cliWords: ['the pre-flight failed, nothing was sent.', 'ECONNREFUSED'],
    app: { settings: {}, coreUrl: () => unusedPort, at: 'connect', words: ['ECONNREFUSED'] },
  },
  {
    kind: 'a key refused',
    exitCode: ExitCode.coreUnreachableOrKeyRefused,
    cli: () => ['push', 'users.json', '--hash-config', 'hash_config.txt', '--core', otherKeyCore.url],
    cliWords: ['the pre-flight failed, nothing was sent.', 'The core refused the api-key'],
    app: { settings: {}, coreUrl: () => otherKeyCore.url, at: 'connect', words: ['The core refused the api-key'] },
  },
  {
    kind: 'a TLS failure',
    exitCode: ExitCode.coreUnreachableOrKeyRefused,
    cli: (core) => ['push', 'users.json', '--hash-config', 'hash_config.txt', '--core', core.replace('http://', 'https://')],
    cliWords: ['nothing was sent', 'does not speak TLS on that port'],
    app: { settings: {}, coreUrl: () => bed.core().url.replace('http://', 'https://'), at: 'connect', words: ['does not speak TLS on that port'] },
  },
  {
    kind: 'a locked journal',
    exitCode: ExitCode.usageOrConfiguration,
    setup: lockTheJournal,
    cli: (core) => ['push', 'users.json', '--hash-config', 'hash_config.txt', '--core', core, '--journal', 'journal.ndjson'],
    cliWords: ['is in use by another push'],
    app: {
      settings: { file: 'users.json', hashConfig: 'hash_config.txt', journal: 'journal.ndjson' },
      at: 'push',
      words: ['Nothing was sent.', 'is in use by another push'],
      field: 'journal',
    },
  },
  {
    kind: 'a broken export file, named by the setting that names it',
    exitCode: ExitCode.usageOrConfiguration,
    setup: () => writeFile(join(bed.folder(), 'broken.json'), '{"users": [{"localId": "a1", "email": "a@example.com"}, {"localId": "a2"'),
    cli: (core) => ['push', 'broken.json', '--hash-config', 'hash_config.txt', '--core', core, '--format', 'firebase-json'],
    cliWords: [/broken\.json, line 1/],
    app: {
      settings: { file: 'broken.json', format: 'firebase-json', hashConfig: 'hash_config.txt' },
      at: 'source',
      words: ['broken.json, line 1', 'it looks cut short'],
      field: settingName('file', 'app'),
    },
  },
  {
    kind: 'a bad hash config',
    exitCode: ExitCode.usageOrConfiguration,
    setup: () => writeFile(join(bed.folder(), 'bad_hash.txt'), 'rounds: 8\n'),
    cli: (core) => ['push', 'users.json', '--hash-config', 'bad_hash.txt', '--core', core],
    cliWords: [/--hash-config bad_hash\.txt: \S+ is missing/],
  },
  {
    kind: 'a bad provider map',
    exitCode: ExitCode.usageOrConfiguration,
    cli: (core) => ['push', 'users.json', '--hash-config', 'hash_config.txt', '--core', core, '--provider-map', 'nonsense'],
    cliWords: ['provider mapping "nonsense" must look like "export-provider-id=short-name"'],
  },
  {
    kind: 'a refused sync journal',
    exitCode: ExitCode.usageOrConfiguration,
    cli: (core) => ['sync', 'users.json', '--hash-config', 'hash_config.txt', '--core', core, '--journal', 'no-such-journal.ndjson'],
    cliWords: [/The journal \S*no-such-journal\.ndjson does not exist: a sync compares the newer export with the journal/],
  },
];

describe('each failure kind reaches the command line with its exit code and its words', () => {
  it.each(kinds)(
    '$kind',
    async ({ setup, cli, exitCode, cliWords }) => {
      await setup?.();
      const run = await binary(cli(bed.core().url));
      expect(run.exitCode, run.stderr).toBe(exitCode);
      for (const words of cliWords) expect(flat(run.stderr)).toMatch(words);
      expect(run.stderr).not.toMatch(/\n\s+at |\{setting\}/);
      expect(bed.core().users()).toEqual([]);
    },
    30_000,
  );
});

describe('the same failures reach the app in its own words, and its exit code', () => {
  const inApp = kinds.filter((kind) => kind.app !== undefined);
  it.each(inApp)(
    '$kind',
    async ({ setup, exitCode, app: expected }) => {
      if (expected === undefined) return;
      await setup?.();
      let result: AppResult | undefined;
      const app = bed.open(expected.settings, {
        size,
        onDone: (done) => (result = done),
        ...(expected.coreUrl === undefined ? {} : { coreUrl: expected.coreUrl() }),
      });
      if (expected.at === 'connect') {
        await waitFor(app, 'Where is the core?');
        await press(app, keys.enter);
        await waitFor(app, (frame) => expected.words.every((words) => flat(frame).includes(words)), 20_000);
        expect(app.lastFrame()).toContain('Where is the core?');
      } else if (expected.at === 'source') {
        await waitFor(app, 'Where is the core?');
        await press(app, keys.enter);
        await waitFor(app, onScreen('Source'));
        await press(app, keys.enter);
        await waitFor(app, (frame) => expected.words.every((words) => flat(frame).includes(words)), 20_000);
        expect(onScreen('Source')(app.lastFrame())).toBe(true);
        if (expected.field !== undefined) expect(focusedLine(app.lastFrame())).toContain(expected.field);
      } else {
        await walkToReview(app);
        await press(app, keys.enter, 'y');
        await waitFor(app, (frame) => expected.words.every((words) => flat(frame).includes(words)), 20_000);
        await press(app, keys.enter);
        await waitFor(app, 'Review]');
        if (expected.field !== undefined) expect(focusedLine(app.lastFrame())).toContain(expected.field);
        await press(app, keys.ctrlC);
        expect(result?.exitCode).toBe(exitCode);
      }
      expect(flat(app.lastFrame())).not.toContain('{setting}');
      expect(bed.core().users()).toEqual([]);
    },
    30_000,
  );
});
