import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface FakePulumi {
  /** A PATH with the fake `pulumi` first, as an operator's shell would have the real one. */
  path: string;
  /** The arguments of the last run, one per element, and the folder it ran in. */
  lastRun(): Promise<{ args: string[]; cwd: string }>;
  /** The names and values of the environment the last run got. */
  lastEnv(): Promise<Record<string, string>>;
}

/**
 * Writes a `pulumi` executable that prints what the real CLI prints for one situation (stdout, stderr, exit code)
 * and records how it was called. It is a plain sh script, so no shell is involved on the caller's side.
 */
export async function fakePulumi(answer: { stdout?: string; stderr?: string; exitCode?: number }): Promise<FakePulumi> {
  const dir = await mkdtemp(join(tmpdir(), 'fake-pulumi-'));
  await writeFile(join(dir, 'stdout.txt'), answer.stdout ?? '');
  await writeFile(join(dir, 'stderr.txt'), answer.stderr ?? '');
  const script = [
    '#!/bin/sh',
    `dir='${dir}'`,
    'pwd > "$dir/cwd.txt"',
    'printf "%s\\n" "$@" > "$dir/args.txt"',
    'env > "$dir/env.txt"',
    'cat "$dir/stdout.txt"',
    'cat "$dir/stderr.txt" >&2',
    `exit ${answer.exitCode ?? 0}`,
    '',
  ].join('\n');
  const binary = join(dir, 'pulumi');
  await writeFile(binary, script);
  await chmod(binary, 0o755);
  return {
    path: `${dir}${delimiter}${process.env['PATH'] ?? ''}`,
    async lastRun() {
      const args = (await readFile(join(dir, 'args.txt'), 'utf8')).split('\n').filter((line) => line !== '');
      const cwd = (await readFile(join(dir, 'cwd.txt'), 'utf8')).trim();
      return { args, cwd };
    },
    async lastEnv() {
      const lines = (await readFile(join(dir, 'env.txt'), 'utf8')).split('\n').filter((line) => line.includes('='));
      return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    },
  };
}

/** What `pulumi stack output --json --show-secrets` prints for a stack of infra/ (keys sorted, two-space indent). */
export function stackOutputJson(outputs: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.entries(outputs).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/** An empty folder for PATH: no `pulumi` anywhere. */
export async function pathWithoutPulumi(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'no-pulumi-'));
}
