import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { MigrationSettingsSchema, type MigrationSettingsInput } from '../../../core-client/src/settings/settings.js';
import { Secret } from '../../../core-client/src/secret.js';
import { App, type AppResult } from '../../../tui/src/terminal-app.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { writeDemoSample } from '../../sandbox/demo-sample.js';
import { renderInTerminal, type Terminal } from './terminal.js';

export interface OpenOptions {
  size?: { columns: number; rows: number };
  onDone?: (result: AppResult) => void;
  /** The core the settings name (default: the bed's core). */
  coreUrl?: string;
  /** The bed's core comes from CORE_URL instead of the settings (no --core). */
  coreFromEnvironment?: boolean;
}

export interface AppBed {
  readonly apiKey: string;
  readonly signerKey: Buffer;
  core: () => CoreDouble;
  /** A fresh folder for each test, holding the demo's sample (users.json, hash_config.txt, credentials.txt). */
  folder: () => string;
  /** The app in a terminal, run from the test's folder, with these settings (the core filled in) and the api-key typed. */
  open: (settings: MigrationSettingsInput, options?: OpenOptions) => Terminal;
}

/**
 * What every test of the whole app needs, set up around each test: a core double (with the signer key of the
 * sample), a folder with the demo's sample export, and the app opened in a terminal of a given size.
 */
export function appTestBed(name: string): AppBed {
  const apiKey = randomBytes(24).toString('hex');
  const signerKey = randomBytes(64);
  let core: CoreDouble | undefined;
  let folder: string | undefined;
  let terminal: Terminal | undefined;

  beforeAll(async () => {
    core = await startCoreDouble({ apiKeys: [apiKey], signerKey: signerKey.toString('base64') });
  });
  afterAll(async () => {
    await core?.close();
  });
  beforeEach(async () => {
    core?.reset();
    folder = await mkdtemp(join(tmpdir(), `core-migrate-${name}-`));
    await writeDemoSample(folder, signerKey);
  });
  afterEach(async () => {
    terminal?.unmount();
    terminal = undefined;
    core?.faults.setLatencyMs(0);
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  const need = <T,>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the test bed has no ${what} outside a test`);
    return value;
  };
  return {
    apiKey,
    signerKey,
    core: () => need(core, 'core'),
    folder: () => need(folder, 'folder'),
    open: (settings, options = {}) => {
      const cwd = need(folder, 'folder');
      terminal = renderInTerminal(
        <App
          env={options.coreFromEnvironment === true ? { CORE_URL: need(core, 'core').url } : {}}
          cwd={cwd}
          colour={false}
          settings={MigrationSettingsSchema.parse({
            ...(options.coreFromEnvironment === true ? {} : { core: [options.coreUrl ?? need(core, 'core').url] }),
            ...settings,
          })}
          invocation="core-migrate"
          apiKey={new Secret(apiKey)}
          apiKeyFromEnvironment
          pulumiBinary={join(cwd, 'no-pulumi-here')}
          {...(options.onDone === undefined ? {} : { onDone: options.onDone })}
        />,
        options.size,
      );
      return terminal;
    },
  };
}
