import { PassThrough } from 'node:stream';
import type { CommandIO } from '../../../tui/src/io.js';

export type TestInput = PassThrough & { isTTY?: boolean; setRawMode?: (raw: boolean) => void; rawModes?: boolean[] };

export interface CapturedIO {
  io: CommandIO & { stdin: TestInput };
  stdout: () => string;
  stderr: () => string;
}

/** A command's streams for an in-process run: what it writes is kept as text; no TTY unless asked. */
export function captureIO(options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: TestInput; stdoutIsTTY?: boolean } = {}): CapturedIO {
  const stdout: PassThrough & { isTTY?: boolean } = new PassThrough();
  if (options.stdoutIsTTY === true) stdout.isTTY = true;
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const stdin = options.stdin ?? new PassThrough();
  return {
    io: { stdin, stdout, stderr, env: options.env ?? {}, cwd: options.cwd ?? process.cwd() },
    stdout: () => out,
    stderr: () => err,
  };
}
