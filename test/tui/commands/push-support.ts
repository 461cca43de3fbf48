import { writeFile } from 'node:fs/promises';
import bcrypt from 'bcryptjs';
import { main } from '../../../tui/src/cli.js';
import { captureIO } from './captured-io.js';
import { formatSummary } from '../../../tui/src/commands/push-format.js';
import { TENANT_PROBE_BODY } from '../../../core-client/src/http/core-client.js';
import type { PushSummary } from '../../../core-client/src/summary/push-summary.js';
import type { CoreDouble } from '../../core-double/index.js';
import { VENDOR_SCRYPT_VECTOR } from '../../core-double/known-hashes.js';

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
        : user.kind === 'thirdParty'
          ? `tp ${user.thirdPartyId}/${user.thirdPartyUserId} ${user.email} ${String(user.isVerified)}`
          : `pl ${user.phoneNumber ?? ''} ${user.email ?? ''}`,
    )
    .sort();
}

/** The pre-flight's tenant probe: an import no core carries out. */
export function isTenantProbe(request: { body?: unknown }): boolean {
  return (request.body as { passwordHash?: unknown } | undefined)?.passwordHash === TENANT_PROBE_BODY.passwordHash;
}

/** Import and sign-in-up requests only (the pre-flight's are left out). */
export function operationRequests(core: CoreDouble): ReturnType<CoreDouble['requests']> {
  return core
    .requests()
    .filter(
      (request) =>
        (request.path.endsWith('/passwordhash/import') && !isTenantProbe(request)) ||
        (request.path.endsWith('/signinup') &&
          request.body !== undefined &&
          typeof (request.body as { thirdPartyUserId?: unknown }).thirdPartyUserId === 'string'),
    );
}

/** The whole standard output of a --json run, which is one JSON document: the summary (or `{"error": …}`). */
export function jsonOf(run: Run): Record<string, unknown> {
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** The summary a person would have read: a --json run's summary put through the same formatter as a run without it. */
export function summaryText(run: Run): string {
  return formatSummary(jsonOf(run) as unknown as PushSummary);
}

// What a --json push says about itself on standard error, for the person watching: the pre-flight's and the plan's
// line, the probe of the first scrypt user, progress, and (scrypt users without a known account) the warning that
// nothing proves their hash parameters, which hash-resend.test.ts asserts.
const RUN_ACCOUNT =
  /^(Core: .* is reachable and accepts the key\.|Plan: \d+ operations from \d+ records .*|Sending the first vendor_scrypt user .* alone, .*|push \d+(\/\d+)? .*|WARNING: \d+ scrypt-variant user\(s\) .*| {2}tester@example\.com the-password-you-know|)$/;

/** The lines of standard error that are not the run's own account of itself: its warnings, notes and refusals. */
export function notesOf(run: Run): string[] {
  return run.stderr.split('\n').filter((line) => !RUN_ACCOUNT.test(line));
}

/**
 * The requests about users since request number `from`, as `METHOD path`: not a read, not a probe of the pre-flight
 * (an empty body the core refuses, or the tenant probe's import). What a run that must send nothing sends.
 */
export function userWrites(core: CoreDouble, from = 0): string[] {
  return core
    .requests()
    .slice(from)
    .filter((request) => request.method !== 'GET' && JSON.stringify(request.body ?? {}) !== '{}' && !isTenantProbe(request))
    .map((request) => `${request.method} ${request.path}`);
}

/** The public scrypt-variant vector's hash_config.txt, owner-only as an operator keeps a file holding the signer key. */
export async function writeVectorHashConfig(path: string): Promise<void> {
  const v = VENDOR_SCRYPT_VECTOR;
  await writeFile(
    path,
    `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${v.signerKey},\n  base64_salt_separator: ${v.saltSeparator},\n  rounds: ${v.rounds},\n  mem_cost: ${v.memCost},\n}\n`,
    { mode: 0o600 },
  );
}

/** A sign-in on the core with a password, as the application would: the core's status (`OK`, `WRONG_CREDENTIALS_ERROR`). */
export async function signIn(core: CoreDouble, email: string, password: string): Promise<string> {
  const answer = await fetch(`${core.url}/recipe/signin`, {
    method: 'POST',
    headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ email, password }),
  });
  return ((await answer.json()) as { status: string }).status;
}
