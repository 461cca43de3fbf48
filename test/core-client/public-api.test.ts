import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
// The CLI's folder: `core-client` resolves there as it does for the installed command, through the package's exports.
const tuiFolder = fileURLToPath(new URL('../../tui', import.meta.url));

/** Imports `specifier` from the built package under plain Node (default conditions), as a library user would. */
async function importBuilt(specifier: string): Promise<{ names: string[] } | { code: string }> {
  const script = `import(${JSON.stringify(specifier)}).then(
    (module) => console.log(JSON.stringify({ names: Object.keys(module) })),
    (error) => console.log(JSON.stringify({ code: String(error.code) })),
  );`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', script], { cwd: tuiFolder });
  return JSON.parse(stdout) as { names: string[] } | { code: string };
}

describe("core-client's public face (the built package)", () => {
  it('offers the library, the settings table, the run by settings, the output files and printable text', async () => {
    const root = await importBuilt('core-client');
    expect(root).toMatchObject({ names: expect.arrayContaining(['runMigration', 'CoreClient', 'planSource', 'Secret', 'readSource']) });
    expect(await importBuilt('core-client/settings')).toMatchObject({
      names: expect.arrayContaining(['settingFlags', 'parseSettings', 'ExitCode', 'optional', 'optionalFrom']),
    });
    expect(await importBuilt('core-client/run')).toMatchObject({ names: expect.arrayContaining(['prepareMigration', 'runPrepared', 'runPlan']) });
    expect(await importBuilt('core-client/printable')).toMatchObject({ names: expect.arrayContaining(['printable', 'printableLines']) });
    expect(await importBuilt('core-client/files')).toMatchObject({ names: expect.arrayContaining(['checkOutputPaths', 'readableByOthersWarning']) });
    expect(await importBuilt('core-client/login-time')).toMatchObject({
      names: expect.arrayContaining(['openLoginMigration', 'migrateAtLogin', 'LoginMigrationAnswerSchema', 'openWaitingStore']),
    });
  });

  it('keeps the settings table light: `core-migrate --help` loads it, and neither the engine nor the HTTP client', async () => {
    const script = `import { registerHooks } from 'node:module';
      const loaded = [];
      registerHooks({ load: (url, context, next) => { loaded.push(url); return next(url, context); } });
      await import('core-client/settings');
      console.log(JSON.stringify(loaded));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', script], { cwd: tuiFolder });
    const loaded = JSON.parse(stdout) as string[];
    expect(loaded.some((url) => url.endsWith('/core-client/dist/settings/setting-flags.js'))).toBe(true);
    for (const heavy of ['/push/engine.js', '/http/core-client.js', '/dist/run/', '/node_modules/undici/']) {
      expect(loaded.filter((url) => url.includes(heavy))).toEqual([]);
    }
  });

  it('keeps the engine, the journal and the dispatcher internal', async () => {
    const root = await importBuilt('core-client');
    if (!('names' in root)) throw new Error(`core-client did not load: ${root.code}`);
    for (const internal of ['Dispatcher', 'Journal', 'runPush', 'syncDelta', 'ConcurrencyController']) expect(root.names).not.toContain(internal);
  });

  it('refuses every path that is not an entry point', async () => {
    for (const deep of ['core-client/push/journal', 'core-client/push', 'core-client/secret', 'core-client/dist/push/journal.js', 'core-client/src/index.ts']) {
      expect(await importBuilt(deep)).toEqual({ code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    }
  });
});
