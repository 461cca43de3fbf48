import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { REAL_CORE_API_KEY } from './real-core.js';

/** The installed command itself (built to dist/ by the suite's global setup), as an operator runs it. */
const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));

export interface BinaryRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `core-migrate ARGS` in `cwd` with the suite's api-key in CORE_API_KEY, no terminal, and waits until it has exited and its output is read. */
export async function coreMigrate(args: string[], cwd: string): Promise<BinaryRun> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, CORE_API_KEY: REAL_CORE_API_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

/** A failed run's whole output in an assertion message, so a red CI names what the core or the command said. */
export function described(run: BinaryRun): string {
  return `exit ${String(run.code)}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}${reportOf(run)}`;
}

const ReportPathSchema = z.looseObject({ reportPath: z.string() });

/** The report a `--json` run names (why each record failed, in the command's words), or '' when there is none. */
function reportOf(run: BinaryRun): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(run.stdout);
  } catch {
    return '';
  }
  const named = ReportPathSchema.safeParse(parsed);
  if (!named.success || !existsSync(named.data.reportPath)) return '';
  return `\n--- report\n${readFileSync(named.data.reportPath, 'utf8')}`;
}

/** The one JSON document a `--json` run prints on standard output. */
export function jsonOf(run: BinaryRun): Record<string, unknown> {
  return z.record(z.string(), z.unknown()).parse(JSON.parse(run.stdout));
}
