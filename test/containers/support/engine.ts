import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { access, constants, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { importBaseImage } from './base-image.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's own engine, as DOCKER_HOST names it (`unix:///…/docker.sock`). */
    dockerHost: string;
    /** The stand-in for a slim Node 24 image, made from Debian in the engine (no registry can be reached). */
    baseImage: string;
  }
}

const run = promisify(execFile);
const BASE_IMAGE = 'core-migrate-test-base:bookworm';
/** How long the engine gets to come up, and to stop before it is killed. */
const ENGINE_START_SECONDS = 60;
const ENGINE_STOP_SECONDS = 30;

const log = (line: string): void => void process.stderr.write(`containers suite: ${line}\n`);

async function onPath(command: string): Promise<boolean> {
  for (const folder of (process.env['PATH'] ?? '').split(delimiter).concat('/usr/sbin', '/sbin')) {
    const found = await access(join(folder, command), constants.X_OK).then(
      () => true,
      () => false,
    );
    if (found) return true;
  }
  return false;
}

/** Debian's engine (and its client) and debootstrap, installed with apt when missing (CI runs as root). */
async function installTools(): Promise<void> {
  const missing = [];
  for (const command of ['dockerd', 'docker', 'debootstrap']) if (!(await onPath(command))) missing.push(command);
  if (missing.length === 0) return;
  log(`${missing.join(', ')} missing: apt-get install docker.io debootstrap`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-q'], { env, maxBuffer: 1 << 26 });
  await run('apt-get', ['install', '-y', '-q', 'docker.io', 'debootstrap'], { env, maxBuffer: 1 << 26 });
}

/** An engine of this suite's own: its socket, data, state and pid file in one temporary folder. */
interface Engine {
  folder: string;
  host: string;
  daemon: ChildProcess;
}

const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

async function answers(host: string): Promise<boolean> {
  return run('docker', ['version', '--format', '{{.Server.Version}}'], { env: { ...process.env, DOCKER_HOST: host } }).then(
    () => true,
    () => false,
  );
}

/**
 * Starts dockerd with `driver`. No bridge, no iptables, no masquerading: every container of the suite runs on the
 * host's network or on none, so no traffic ever goes to a private-range address (a bridge and its gateway are one).
 */
async function startEngine(driver: string): Promise<Engine | string> {
  const folder = await mkdtemp('/tmp/core-migrate-engine-');
  const host = `unix://${folder}/docker.sock`;
  const output = await open(join(folder, 'dockerd.log'), 'a');
  const daemon = spawn(
    'dockerd',
    [
      `--storage-driver=${driver}`,
      `--host=${host}`,
      `--data-root=${folder}/data`,
      `--exec-root=${folder}/exec`,
      `--pidfile=${folder}/dockerd.pid`,
      '--bridge=none',
      '--iptables=false',
      '--ip-masq=false',
    ],
    { stdio: ['ignore', output.fd, output.fd] },
  );
  await output.close();
  for (let second = 0; second < ENGINE_START_SECONDS * 4 && !exited(daemon); second += 1) {
    if (await answers(host)) return { folder, host, daemon };
    await sleep(250);
  }
  const why = (await readFile(join(folder, 'dockerd.log'), 'utf8')).split('\n').slice(-15).join('\n');
  await stopEngine({ folder, host, daemon });
  return `dockerd --storage-driver=${driver} did not answer within ${ENGINE_START_SECONDS} s:\n${why}`;
}

async function stopEngine(engine: Engine): Promise<void> {
  if (!exited(engine.daemon)) {
    engine.daemon.kill('SIGTERM');
    for (let tick = 0; tick < ENGINE_STOP_SECONDS * 4 && !exited(engine.daemon); tick += 1) await sleep(250);
  }
  if (!exited(engine.daemon)) {
    // A dockerd that does not stop is killed, and the containerd it started for itself would outlive it: ended too,
    // by the pid it wrote, once that pid is seen to be a containerd still.
    const containerd = (await readFile(join(engine.folder, 'exec/containerd/containerd.pid'), 'utf8').catch(() => '')).trim();
    engine.daemon.kill('SIGKILL');
    const name = await readFile(`/proc/${containerd}/comm`, 'utf8').catch(() => '');
    if (/^\d+$/.test(containerd) && name.trim() === 'containerd') process.kill(Number(containerd), 'SIGKILL');
  }
  // What a stopped engine may leave mounted under its folder (a network namespace, a layer), deepest first.
  const mounts = (await readFile('/proc/self/mounts', 'utf8'))
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((path) => path.startsWith(`${engine.folder}/`))
    .sort((a, b) => b.length - a.length);
  for (const path of mounts) await run('umount', ['--lazy', path]).catch(() => undefined);
  await rm(engine.folder, { recursive: true, force: true, maxRetries: 5 });
}

/**
 * Vitest global setup of `npm run test:containers`: the tools, an engine of the suite's own, and the base image the
 * project's Dockerfile is built on; the teardown stops the engine and removes everything it held.
 */
export default async function containersSetup(project: TestProject): Promise<() => Promise<void>> {
  await installTools();
  // overlay2 where the kernel and the file system allow it (each layer and container a copy-free mount); vfs, which
  // copies the whole image for every layer and container, only where they do not. CONTAINERS_STORAGE_DRIVER forces one.
  const drivers = process.env['CONTAINERS_STORAGE_DRIVER'] !== undefined ? [process.env['CONTAINERS_STORAGE_DRIVER']] : ['overlay2', 'vfs'];
  let engine: Engine | undefined;
  for (const driver of drivers) {
    const started = await startEngine(driver);
    if (typeof started !== 'string') {
      log(`dockerd (${driver}) on ${started.host}`);
      engine = started;
      break;
    }
    log(started);
  }
  if (engine === undefined) throw new Error(`no engine could be started (${drivers.join(', ')}): see above`);
  const running = engine;
  // A run stopped short (Ctrl-C, a crash in the runner) still stops the engine.
  const killOnExit = (): void => void (exited(running.daemon) || running.daemon.kill('SIGTERM'));
  process.once('exit', killOnExit);
  const teardown = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    await stopEngine(running);
  };
  try {
    await importBaseImage(running.host, BASE_IMAGE, log);
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('dockerHost', running.host);
  project.provide('baseImage', BASE_IMAGE);
  return teardown;
}
