import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { access, chmod, copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The repository's own Node 24 (the `node` devDependency): the binary the stand-in base runs. */
const NODE_BINARY = join(root, 'node_modules/node/bin/node');
/** The npm the stand-in base gets (the Dockerfile's build stage runs npm ci and npm pack with it): Node 24's npm line. */
const NPM_VERSION = '11.19.1';
/** Debian's release the base is made from, as `debootstrap` names it. */
const SUITE = 'bookworm';
/**
 * Kept between runs on one machine so a rerun skips debootstrap (about a minute); never needed: without it, or when
 * it cannot be written, the base is made again.
 */
export const CACHE_DIRECTORY = '/var/cache/core-migrate-tests';
/** Where the CA bundle goes in the base: where Debian's ca-certificates puts it. */
const CA_BUNDLE_IN_IMAGE = '/etc/ssl/certs/ca-certificates.crt';
/** What a slim Debian image leaves out: the package lists and downloads, manuals and translations. */
const SLIMMED = ['var/cache/apt/archives', 'var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/info', 'usr/share/locale'];

/**
 * The Debian mirror apt uses on this machine (deb822 `URIs:` or a one-line `deb` entry for the suite itself, not its
 * security or updates suites), so debootstrap goes where this machine's network lets apt go.
 */
export async function debianMirror(): Promise<string> {
  const files = ['/etc/apt/sources.list', ...(await readdir('/etc/apt/sources.list.d').catch(() => [])).map((name) => join('/etc/apt/sources.list.d', name))];
  for (const file of files.filter((name) => name.endsWith('.list') || name.endsWith('.sources'))) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const stanza of text.split(/\n\s*\n/)) {
      const uris = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      const suites = /^Suites:\s*(.+)$/m.exec(stanza)?.[1]?.split(/\s+/) ?? [];
      if (uris !== undefined && suites.includes(SUITE)) return uris;
    }
    const line = new RegExp(`^deb\\s+(?:\\[[^\\]]*\\]\\s+)?(\\S+)\\s+${SUITE}\\s`, 'm').exec(text);
    if (line?.[1] !== undefined) return line[1];
  }
  return 'http://deb.debian.org/debian';
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Writes `path` through a temporary name, so a run stopped half-way never leaves a truncated file to be trusted. */
async function cacheAtomically(path: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${path}.partial-${process.pid}`;
  try {
    await mkdir(CACHE_DIRECTORY, { recursive: true });
    await write(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    process.stderr.write(`containers suite: not cached (${String(error)}); the next run makes it again\n`);
  }
}

/** A minimal Debian root file system in `rootfs`: from the cache, or debootstrap (then cached). */
async function debianRoot(rootfs: string, log: (line: string) => void): Promise<void> {
  const mirror = await debianMirror();
  const cached = join(CACHE_DIRECTORY, `debian-${SUITE}-minbase-${mirror.replace(/[^a-z0-9]+/gi, '_')}.tar`);
  if (await exists(cached)) {
    try {
      await run('tar', ['-C', rootfs, '-xf', cached]);
      log(`Debian ${SUITE} from the cache (${cached})`);
      return;
    } catch (error) {
      log(`the cached Debian root cannot be read (${String(error)}): made again`);
      await rm(cached, { force: true });
      await rm(rootfs, { recursive: true, force: true });
      await mkdir(rootfs);
    }
  }
  log(`debootstrap --variant=minbase ${SUITE} from ${mirror}`);
  await run('debootstrap', ['--variant=minbase', SUITE, rootfs, mirror], { maxBuffer: 1 << 26 });
  for (const path of SLIMMED) await rm(join(rootfs, path), { recursive: true, force: true });
  await cacheAtomically(cached, (temporary) => run('tar', ['-C', rootfs, '-cf', temporary, '.']).then(() => undefined));
}

/** npm's own package (it bundles its dependencies), from the cache or the registry. */
async function npmTarball(scratch: string): Promise<string> {
  const cached = join(CACHE_DIRECTORY, `npm-${NPM_VERSION}.tgz`);
  if (await exists(cached)) return cached;
  await run('npm', ['pack', `npm@${NPM_VERSION}`, '--pack-destination', scratch], { cwd: scratch });
  const packed = join(scratch, `npm-${NPM_VERSION}.tgz`);
  await cacheAtomically(cached, (temporary) => copyFile(packed, temporary));
  return packed;
}

/** The CA bundle Node on this machine trusts: the registry may be reached through a proxy that only it names. */
const hostCaBundle = (): string => process.env['NODE_EXTRA_CA_CERTS'] ?? '/etc/ssl/certs/ca-certificates.crt';

const exitOf = (child: ChildProcess): Promise<number | null> => new Promise((resolve) => child.once('exit', (code) => resolve(code)));

/**
 * Makes the stand-in for `node:24-*-slim` that no registry can give here, and imports it into the engine as `name`:
 * Debian minbase, the repository's Node 24 binary, npm, and the CA bundle this machine trusts (as NODE_EXTRA_CA_CERTS,
 * so the image's build reaches the npm registry the way the host does).
 */
export async function importBaseImage(dockerHost: string, name: string, log: (line: string) => void): Promise<void> {
  if (!(await exists(NODE_BINARY))) throw new Error(`${NODE_BINARY} is missing: run npm ci first (the node devDependency installs it)`);
  const scratch = await mkdtemp(join(tmpdir(), 'core-migrate-base-'));
  try {
    const rootfs = join(scratch, 'rootfs');
    await mkdir(rootfs);
    await debianRoot(rootfs, log);
    await copyFile(NODE_BINARY, join(rootfs, 'usr/local/bin/node'));
    await chmod(join(rootfs, 'usr/local/bin/node'), 0o755);
    const npmHome = join(rootfs, 'usr/local/lib/node_modules/npm');
    await mkdir(npmHome, { recursive: true });
    await run('tar', ['-xzf', await npmTarball(scratch), '-C', npmHome, '--strip-components=1']);
    await symlink('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
    await symlink('../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx'));
    const changes: string[] = [];
    const bundle = hostCaBundle();
    if (await exists(bundle)) {
      await mkdir(join(rootfs, 'etc/ssl/certs'), { recursive: true });
      await copyFile(bundle, join(rootfs, CA_BUNDLE_IN_IMAGE));
      changes.push('--change', `ENV NODE_EXTRA_CA_CERTS=${CA_BUNDLE_IN_IMAGE}`);
    }
    // tar -C rootfs -c . | docker import - name
    const tar = spawn('tar', ['-C', rootfs, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const importer = spawn('docker', ['import', ...changes, '-', name], {
      env: { ...process.env, DOCKER_HOST: dockerHost },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    tar.stdout.pipe(importer.stdin);
    const [tarCode, importCode] = await Promise.all([exitOf(tar), exitOf(importer)]);
    if (tarCode !== 0 || importCode !== 0) throw new Error(`tar | docker import ${name} failed (tar ${String(tarCode)}, docker ${String(importCode)})`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
