import { writeFile } from 'node:fs/promises';
import bcrypt from 'bcryptjs';
import { main } from '../../../tui/src/cli.js';
import { captureIO } from './captured-io.js';
import type { CoreDouble } from '../../core-double/index.js';

export const API_KEY = 'push-api-key-0123456789-abcdefghij';

export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs the whole CLI in-process with its own streams, as a shell would (no TTY unless asked). */
export async function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, options: { tty?: boolean } = {}): Promise<Run> {
  const { io, stdout, stderr } = captureIO({ env: { CORE_API_KEY: API_KEY, ...env }, cwd, stdoutIsTTY: options.tty === true });
  const exitCode = await main(args, io);
  return { exitCode, stdout: stdout(), stderr: stderr() };
}

export interface KnownUser {
  line: number;
  email: string;
  password: string;
  passwordHash: string;
}

/**
 * A generic NDJSON export in the contract's own shape: bcrypt users (cost 4, real hashes of known passwords),
 * every 4th line a Google user, and optionally one record the plan rejects.
 */
export async function writeExport(path: string, count: number, options: { broken?: boolean } = {}): Promise<KnownUser[]> {
  const users: KnownUser[] = [];
  const lines: string[] = [];
  const salt = bcrypt.genSaltSync(4);
  for (let line = 1; line <= count; line += 1) {
    if (line % 4 === 0) {
      lines.push(JSON.stringify({ email: `social${line}@example.com`, isVerified: true, thirdPartyId: 'google', thirdPartyUserId: `g-${line}` }));
      continue;
    }
    const email = `user${line}@example.com`;
    const password = `pw-${line}-secret`;
    const passwordHash = bcrypt.hashSync(password, salt);
    users.push({ line, email, password, passwordHash });
    lines.push(JSON.stringify({ email, passwordHash }));
  }
  if (options.broken === true) lines.push(JSON.stringify({ email: 'broken@example.com', passwordHash: '$2a$04$short' }));
  await writeFile(path, `${lines.join('\n')}\n`);
  return users;
}

/** The store as comparable text (ids and times left out). */
export function storeSnapshot(core: CoreDouble): string[] {
  return core
    .users()
    .map((user) =>
      user.kind === 'emailPassword'
        ? `pw ${user.email} ${user.passwordHash}`
        : `tp ${user.thirdPartyId}/${user.thirdPartyUserId} ${user.email} ${String(user.isVerified)}`,
    )
    .sort();
}

/** Import and sign-in-up requests only (the pre-flight's are left out). */
export function operationRequests(core: CoreDouble): ReturnType<CoreDouble['requests']> {
  return core
    .requests()
    .filter(
      (request) =>
        request.path.endsWith('/passwordhash/import') ||
        (request.path.endsWith('/signinup') &&
          request.body !== undefined &&
          typeof (request.body as { thirdPartyUserId?: unknown }).thirdPartyUserId === 'string'),
    );
}

/** The last line of a --json run: the summary object. */
export function lastJson(run: Run): Record<string, unknown> {
  const lines = run.stdout.trim().split('\n');
  return JSON.parse(lines.at(-1) ?? '{}') as Record<string, unknown>;
}
