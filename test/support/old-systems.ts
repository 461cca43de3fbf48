import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Old systems nobody here wrote, run by the tests on loopback: the Firebase Auth emulator (firebase-tools) and
 * cognito-local. Each is started in a folder of the test's own and stopped by it (../shared/spec/old-systems.md says
 * how they answered).
 */
export interface RunningOldSystem {
  /** Its base URL on 127.0.0.1. */
  url: string;
  /** What it printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

const FIREBASE_CLI = fileURLToPath(new URL('../../node_modules/firebase-tools/lib/bin/firebase.js', import.meta.url));
const COGNITO_LOCAL = fileURLToPath(new URL('../../node_modules/cognito-local/lib/bin/start.js', import.meta.url));

/** A port nobody listens on now; the emulator's settings want one written down before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

function started(child: ChildProcess, ready: (output: string) => string | undefined, what: string, waitMs: number): Promise<RunningOldSystem> {
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${what} did not start within ${waitMs / 1000} s:\n${output}`));
    }, waitMs);
    const check = (): void => {
      const url = ready(output);
      if (url === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      resolve({ url, output: () => output, stop });
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} ended (${String(code)}) before it was ready:\n${output}`));
    });
  });
}

/**
 * The Firebase Auth emulator of a `demo-` project (which needs no real project), alone (no UI, which it would
 * download). `CI` keeps the CLI from fetching its message of the day and `NO_UPDATE_NOTIFIER` from asking npm for a
 * newer version (firebase-tools' fetchMOTD.js and update-notifier): offline, the start is the emulator's own work
 * only. Its configuration stays in the folder given.
 */
export async function startFirebaseEmulator(dir: string, projectId: string): Promise<RunningOldSystem> {
  const [auth, hub, logging] = [await freePort(), await freePort(), await freePort()];
  const host = '127.0.0.1';
  const config = { emulators: { auth: { host, port: auth }, hub: { host, port: hub }, logging: { host, port: logging }, ui: { enabled: false } } };
  await writeFile(join(dir, 'firebase.json'), JSON.stringify(config));
  const child = spawn(process.execPath, [FIREBASE_CLI, 'emulators:start', '--only', 'auth', '--project', projectId], {
    cwd: dir,
    env: { ...process.env, CI: '1', NO_UPDATE_NOTIFIER: '1', XDG_CONFIG_HOME: join(dir, '.config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return started(child, (output) => (output.includes('All emulators ready') ? `http://${host}:${auth}` : undefined), 'the Firebase Auth emulator', 240_000);
}

/**
 * cognito-local on a free port of 127.0.0.1, its state (`.cognito/`) in the folder given. The port is chosen before
 * it starts because its tokens' issuer (`iss`, `http://HOST:PORT/<pool id>`) is made of HOST and PORT as given: with
 * port 0 they would name `localhost:0`, where no key set is.
 */
export async function startCognitoLocal(dir: string): Promise<RunningOldSystem> {
  await mkdir(dir, { recursive: true });
  const env = { ...process.env, HOST: '127.0.0.1', PORT: String(await freePort()) };
  const child = spawn(process.execPath, [COGNITO_LOCAL], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return started(child, (output) => /Cognito Local running on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 'cognito-local', 60_000);
}
