import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { API_KEY } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
export const SERVICE_KEY = 'the-login-service-key-of-this-test-0123';
const Answer = z.looseObject({ outcome: z.string(), userId: z.string().optional(), reason: z.string().optional() });
export type ServiceAnswer = { status: number; body: z.infer<typeof Answer> };

/** `core-migrate login-migration serve` as an operator starts it, on a push's store and core, asking an old system. */
export interface RunningService {
  url: string;
  output(): string;
  migrate(email: string, password: string): Promise<ServiceAnswer>;
  stop(): Promise<void>;
}

export async function startService(dir: string, coreUrl: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningService> {
  const child: ChildProcess = spawn(
    process.execPath,
    [BIN, 'login-migration', 'serve', '--store', 'waiting.sqlite', '--core', coreUrl, '--port', '0', ...args],
    {
      cwd: dir,
      env: { ...process.env, ...env, CORE_API_KEY: API_KEY, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const seen = (): void => {
      const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (found !== undefined) resolve(found);
    };
    child.stdout?.on('data', seen);
    child.once('exit', (code) => reject(new Error(`the service ended (${String(code)}) before listening:\n${output}`)));
  });
  return {
    url,
    output: () => output,
    async migrate(email, password) {
      const answer = await fetch(`${url}/migrate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${SERVICE_KEY}` },
        body: JSON.stringify({ email, password }),
      });
      const text = await answer.text();
      try {
        return { status: answer.status, body: Answer.parse(JSON.parse(text)) };
      } catch {
        throw new Error(`the service answered ${answer.status} ${text}\n${output}`);
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
