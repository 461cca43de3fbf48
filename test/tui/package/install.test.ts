import { execFile } from 'node:child_process';
import { copyFile, cp, mkdtemp, readFile, readdir, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const fixture = join(root, 'test/fixtures/exports/generic/users.ndjson');

/** Node 24 first on PATH, as an operator's own Node would be: the bin's `#!/usr/bin/env node` must find it. */
const { CORE_API_KEY: _apiKey, ...inherited } = process.env;
const env: NodeJS.ProcessEnv = { ...inherited, PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`, NO_COLOR: '1' };

async function version(workspace: string): Promise<string> {
  return (JSON.parse(await readFile(join(root, workspace, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The names of the two tarballs `npm pack` makes, core-client's first (it is installed with the command). */
async function packedTarballs(): Promise<string[]> {
  return [`core-client-${await version('core-client')}.tgz`, `core-migrate-${await version('tui')}.tgz`];
}

/** What `npm pack --workspace core-client --workspace core-migrate` reads from the repository. */
const PACKED_FROM = [
  'package.json',
  'tsconfig.json',
  'core-client/package.json',
  'core-client/tsconfig.build.json',
  'core-client/src',
  'tui/package.json',
  'tui/tsconfig.build.json',
  'tui/src',
  'tui/bin',
  'infra/package.json',
  'test/package.json',
];

/**
 * A copy of the repository's packed parts (its node_modules linked), where `npm pack` runs: each workspace's prepack
 * build empties its dist/ and compiles it again, which took the repository's own dist/ away for seconds from the
 * tests that start the binary meanwhile (a push test failed on `Cannot find module .../tui/dist/invocation.js`).
 */
async function packingCopy(): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'core-migrate-pack-root-'));
  for (const path of PACKED_FROM) await cp(join(root, path), join(copy, path), { recursive: true });
  await symlink(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // A workspace's own node_modules holds the versions the root's cannot (core-client's ipaddr.js 2, beside express's 1).
  for (const workspace of ['core-client', 'tui']) {
    const nested = join(root, workspace, 'node_modules');
    if (
      await stat(nested).then(
        () => true,
        () => false,
      )
    )
      await symlink(nested, join(copy, workspace, 'node_modules'), 'dir');
  }
  return copy;
}

/** The commands of the README's first code block under "## Install", comments left out. */
async function readmeInstallCommands(): Promise<string[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const install = readme.slice(readme.indexOf('## Install'));
  const block = /```bash\n([\s\S]*?)```/.exec(install)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

/**
 * The package as an operator gets it: the workspaces packed, the two tarballs installed with npm as the README says
 * (`--global`, into a prefix of the test's own) from a folder outside the repository (third-party packages from the
 * registry), and the command run from another folder.
 */
describe('the packed core-migrate, installed outside the repository', () => {
  let packs: string;
  let packingRoot: string;
  let home: string;
  let prefix: string;
  let bin: string;

  beforeAll(async () => {
    packs = await mkdtemp(join(tmpdir(), 'core-migrate-packs-'));
    packingRoot = await packingCopy();
    home = await mkdtemp(join(tmpdir(), 'core-migrate-home-'));
    // The README's command, word for word: it makes exactly the two tarballs it says.
    await run('npm', ['pack', '--workspace', 'core-client', '--workspace', 'core-migrate', '--pack-destination', packs], {
      cwd: packingRoot,
      env,
      maxBuffer: 1 << 24,
    });
    const tarballs = await readdir(packs);
    expect(tarballs.sort()).toEqual([`core-client-${await version('core-client')}.tgz`, `core-migrate-${await version('tui')}.tgz`]);
    // The README's `npm install --global ./core-client-….tgz ./core-migrate-….tgz`, run where the tarballs are, into a
    // global prefix of the test's own (the machine's global folder is left alone).
    prefix = await mkdtemp(join(tmpdir(), 'core-migrate-global-'));
    await run('npm', ['install', '--global', '--no-audit', '--no-fund', ...(await packedTarballs()).map((name) => `./${name}`)], {
      cwd: packs,
      env: { ...env, npm_config_prefix: prefix },
      maxBuffer: 1 << 24,
    });
    bin = join(prefix, 'bin/core-migrate');
    await copyFile(fixture, join(home, 'users.ndjson'));
  }, 240_000);

  afterAll(async () => {
    await rm(packs, { recursive: true, force: true });
    await rm(packingRoot, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
    await rm(prefix, { recursive: true, force: true });
  });

  it('is what the README leads with: these tarballs packed and installed, no package asked of the registry by name', async () => {
    const commands = await readmeInstallCommands();
    expect(commands).toContain('npm pack --workspace core-client --workspace core-migrate');
    expect(commands).toContain(`npm install --global ${(await packedTarballs()).map((name) => `./${name}`).join(' ')}`);
    expect(commands.filter((command) => /^npm (install|i)\b/.test(command) && !command.includes('.tgz'))).toEqual([]);
  });

  it('installs compiled JavaScript only: no TypeScript sources and no tsx', async () => {
    const installed = join(prefix, 'lib/node_modules');
    const names = await readdir(installed);
    expect(names).not.toContain('tsx');
    const cliFiles = await readdir(join(installed, 'core-migrate/dist'));
    expect(cliFiles).toContain('cli.js');
    expect(cliFiles.filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))).toEqual([]);
  });

  it('answers --version from any folder', async () => {
    const { stdout } = await run(bin, ['--version'], { cwd: home, env });
    expect(stdout.trim()).toBe(await version('tui'));
  });

  it('plans an export from the folder that holds it', async () => {
    // The fixture holds refused records on purpose: exit 1 ("some records were rejected") with the summary.
    const failure = await run(bin, ['plan', 'users.ndjson', '--json'], { cwd: home, env }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stdout: string; stderr: string },
    );
    expect(failure?.code, failure?.stderr).toBe(1);
    const summary = JSON.parse(failure?.stdout.trim().split('\n').at(-1) ?? '') as { records: number; operations: number; rejected: number };
    expect(summary).toMatchObject({ records: 7, operations: 7 });
    expect(summary.rejected).toBeGreaterThan(0);
  });

  it('opens the terminal app in a pseudo-terminal and renders its first screen', async () => {
    const socket = `core-migrate-install-${process.pid}`;
    const tmux = (...args: string[]) => run('tmux', ['-L', socket, ...args], { cwd: home, env });
    try {
      await tmux('new-session', '-d', '-x', '80', '-y', '24', '-c', home, `${bin}; sleep 30`);
      let screen = '';
      for (let attempt = 0; attempt < 100 && !screen.includes('Where is the core?'); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        screen = (await tmux('capture-pane', '-p')).stdout;
      }
      expect(screen).toContain('Where is the core?');
      expect(screen).not.toMatch(/Error|is not defined/);
    } finally {
      await tmux('kill-server').catch(() => undefined);
    }
  });
});
