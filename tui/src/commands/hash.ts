import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Command } from 'commander';
import {
  type HashConfig,
  prefixRuleFromOption,
  type PrefixRule,
  Secret,
  hashFamilyLabel,
  type PrepareHashResult,
  prepareHash,
  signerKeyReminder,
  verifyPassword,
  LEGACY_HASH_ADVICE,
  legacyHashBehind,
  legacyHashFamilyLabel,
  type LegacyHashReading,
  verifyLegacyPassword,
} from 'core-client';
import { readHashConfigFile } from 'core-client/run';
import { ExitCode, isProblem, Problem, type SettingProblem } from 'core-client/settings';
import type { CommandIO } from '../io.js';
import type { RegisterCommand } from './index.js';
import { StdinLines } from './stdin-lines.js';
import { CommandOutput } from './command-output.js';

interface HashFlags {
  salt?: string;
  hashFile?: string;
  saltFile?: string;
  hashConfig?: string;
  hashingAlgorithm?: string;
  stripPrefix?: string[];
  json?: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Exit codes of `hash verify`: a mismatch is the "some records failed" of a one-record check. */
const VerifyExit = { match: ExitCode.ok, mismatch: ExitCode.someRecordsFailed, unusable: ExitCode.usageOrConfiguration } as const;

export const registerHashCommand: RegisterCommand = (hash: Command, { io, setExitCode }) => {
  addHashOptions(hash.command('inspect [hash]'))
    .description(
      'show the family, the normalised hash for the import body (or why it is refused: a legacy family with its parameters) and warnings; exit 0 usable, 2 not',
    )
    .option('--json', 'print one JSON object instead of lines')
    .action(async (rawHash: string | undefined, flags: HashFlags) => {
      const output = new CommandOutput(io, 'hash inspect', { json: flags.json === true });
      const stdin = new StdinLines(io.stdin);
      const prepared = await prepareFromFlags(rawHash, flags, io, stdin);
      if (prepared instanceof Problem) return setExitCode(output.failWith(prepared));
      if (prepared instanceof FlagsRefusal) return setExitCode(output.fail(prepared.sentence, ExitCode.usageOrConfiguration));
      const legacy = legacyHashBehind(prepared.result, prepared.rawHash);
      if (legacy !== undefined) {
        output.result(legacyInspectionJson(legacy), formatLegacyInspection(legacy));
        return setExitCode(ExitCode.usageOrConfiguration);
      }
      output.result(inspectionJson(prepared.result), formatInspection(prepared.result));
      setExitCode(prepared.result.ok ? ExitCode.ok : ExitCode.usageOrConfiguration);
    });

  addHashOptions(hash.command('verify [hash]'))
    .description(
      'check a known password (standard input, or a prompt that shows nothing) against the hash, a legacy one too; exit 0 match, 1 mismatch, 2 unusable',
    )
    .option('--json', 'print one JSON object instead of lines')
    .action(async (rawHash: string | undefined, flags: HashFlags) => {
      const output = new CommandOutput(io, 'hash verify', { json: flags.json === true });
      const fail = (message: string): void => setExitCode(output.fail(message, VerifyExit.unusable));
      const stdin = new StdinLines(io.stdin);
      const prepared = await prepareFromFlags(rawHash, flags, io, stdin);
      if (prepared instanceof Problem) return setExitCode(output.failWith(prepared));
      if (prepared instanceof FlagsRefusal) return fail(prepared.sentence);
      const { result, config, rawHash: hash } = prepared;
      const legacy = legacyHashBehind(result, hash);
      if (legacy !== undefined) {
        if (!legacy.usable) return fail(`cannot check the ${legacyHashFamilyLabel(legacy.family)} hash (${legacy.code}): ${legacy.reason}`);
        const password = await readPassword(io, stdin);
        if (password === undefined) return fail('no password given (send it on standard input, one line)');
        const checked = await untilInterrupted((signal) => verifyLegacyPassword(password, hash.trim(), { signal }));
        if (checked === undefined) return fail('interrupted (Ctrl-C) before the check ended; nothing was decided.');
        if (checked.outcome === 'unusable') return fail(`cannot check: ${checked.reason}`);
        const match = checked.outcome === 'match';
        const text = `${match ? 'match' : 'no match'}: ${legacyHashFamilyLabel(checked.family)} (checked locally)\nnote: ${LEGACY_HASH_ADVICE}\n`;
        output.result({ match, family: checked.family, legacy: true, warnings: [], notes: [LEGACY_HASH_ADVICE] }, text);
        return setExitCode(match ? VerifyExit.match : VerifyExit.mismatch);
      }
      if (!result.ok) return fail(`rejected (${result.code}): ${result.reason}`);
      const password = await readPassword(io, stdin);
      if (password === undefined) return fail('no password given (send it on standard input, one line)');
      const checked = await untilInterrupted((signal) => verifyPassword(password, result.passwordHash, { signerKey: config?.signerKey, signal }));
      if (checked === undefined) return fail('interrupted (Ctrl-C) before the check ended; nothing was decided.');
      if (!checked.ok) return fail(`cannot check: ${checked.reason}`);
      // The check prepares the hash again, so the preparation's warnings come back from it too: each is said once.
      const warnings = [...new Set([...result.warnings, ...checked.warnings])];
      const notes = checked.match && checked.family === 'vendor_scrypt' ? [signerKeyReminder()] : [];
      const lines = [`${checked.match ? 'match' : 'no match'}: ${hashFamilyLabel(checked.family)}`];
      for (const warning of warnings) lines.push(`warning: ${warning}`);
      for (const note of notes) lines.push(`note: ${note}`);
      output.result({ match: checked.match, family: checked.family, warnings, notes }, `${lines.join('\n')}\n`);
      setExitCode(checked.match ? VerifyExit.match : VerifyExit.mismatch);
    });
};

/**
 * Runs a local check that the first Ctrl-C stops (a costly hash takes seconds); undefined when it was stopped. The
 * handler goes away with the check, so a Ctrl-C at any other moment has its usual effect.
 */
async function untilInterrupted<T>(check: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  const stop = new AbortController();
  const onSigint = (): void => stop.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  try {
    return await check(stop.signal);
  } catch (error) {
    if (stop.signal.aborted) return undefined;
    throw error;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

const STDIN_NAME = '-';

function addHashOptions(command: Command): Command {
  return command
    .option('--hash-file <file>', `read the hash from the first line of this file instead of the command line ("${STDIN_NAME}": standard input)`)
    .option('--salt <salt>', "the user's salt (vendor scrypt exports carry it beside the hash)")
    .option('--salt-file <file>', `read the salt from the first line of this file ("${STDIN_NAME}": standard input)`)
    .option('--hash-config <file>', "the provider's hash_config block or JSON (vendor scrypt)")
    .option('--hashing-algorithm <name>', 'the algorithm the record names (its hashingAlgorithm field), checked against the hash as plan checks it')
    .option('--strip-prefix <prefix>', 'strip this prefix from the hash: exact text, or re:<regex> matched at the start (repeatable)', collect)
    .addHelpText(
      'after',
      [
        '',
        'A hash or salt on the command line lands in shell history and `ps`; --hash-file and --salt-file keep them off it.',
        `With "${STDIN_NAME}", standard input gives, one line each and in this order: the hash, the salt, then (verify) the password.`,
        'A hash that starts with "-" goes after "--", e.g. core-migrate hash inspect -- -abc...',
      ].join('\n'),
    );
}

/** What is wrong with the command's own flags (the hash and the salt are no settings of the table), in its words. */
class FlagsRefusal {
  constructor(readonly sentence: string) {}
}

/** The hash and the salt from the command line, a file, or standard input; a refusal says which option is wrong. */
async function hashInput(
  rawHash: string | undefined,
  flags: HashFlags,
  io: CommandIO,
  stdin: StdinLines,
): Promise<{ rawHash: string; salt?: string } | FlagsRefusal> {
  if (rawHash !== undefined && flags.hashFile !== undefined) return new FlagsRefusal('give the hash either as an argument or with --hash-file, not both');
  if (rawHash === undefined && flags.hashFile === undefined)
    return new FlagsRefusal(`give the hash as an argument, or with --hash-file FILE (${STDIN_NAME} for standard input)`);
  if (flags.salt !== undefined && flags.saltFile !== undefined) return new FlagsRefusal('give the salt either with --salt or with --salt-file, not both');
  const hash = rawHash ?? (await firstLineOf(flags.hashFile as string, '--hash-file', 'hash', io, stdin));
  if (hash instanceof FlagsRefusal) return hash;
  const salt = flags.saltFile === undefined ? flags.salt : await firstLineOf(flags.saltFile, '--salt-file', 'salt', io, stdin);
  if (salt instanceof FlagsRefusal) return salt;
  return salt === undefined ? { rawHash: hash } : { rawHash: hash, salt };
}

async function firstLineOf(path: string, option: string, what: string, io: CommandIO, stdin: StdinLines): Promise<string | FlagsRefusal> {
  let line: string | undefined;
  if (path === STDIN_NAME) {
    line = await stdin.next();
  } else {
    try {
      const text = await readFile(resolve(io.cwd, path), 'utf8');
      line = text.split('\n', 1)[0]?.replace(/\r$/, '');
    } catch (error) {
      return new FlagsRefusal(`${option} ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
  }
  const value = line?.trim() ?? '';
  const from = path === STDIN_NAME ? 'standard input' : path;
  return value === '' ? new FlagsRefusal(`${option} ${path}: no ${what} on the first line of ${from}`) : value;
}

async function prepareFromFlags(
  rawHash: string | undefined,
  flags: HashFlags,
  io: CommandIO,
  stdin: StdinLines,
): Promise<{ result: PrepareHashResult; rawHash: string; config?: HashConfig } | FlagsRefusal | SettingProblem> {
  const input = await hashInput(rawHash, flags, io, stdin);
  if (input instanceof FlagsRefusal) return input;
  const config = flags.hashConfig === undefined ? undefined : await readHashConfigFile(flags.hashConfig, io.cwd);
  if (config instanceof Problem) return config;
  const prefixRules: PrefixRule[] = [];
  for (const option of flags.stripPrefix ?? []) {
    const rule = prefixRuleFromOption(option);
    if (isProblem(rule)) return rule;
    prefixRules.push(rule);
  }
  const result = prepareHash({
    rawHash: input.rawHash,
    ...(input.salt !== undefined && { salt: input.salt }),
    ...(config !== undefined && { hashConfig: config }),
    ...(flags.hashingAlgorithm !== undefined && { hashingAlgorithm: flags.hashingAlgorithm }),
    prefixRules,
  });
  return { result, rawHash: input.rawHash, ...(config !== undefined && { config }) };
}

function inspectionJson(result: PrepareHashResult): Record<string, unknown> {
  if (!result.ok) return { rejected: true, code: result.code, reason: result.reason };
  return {
    family: result.family,
    passwordHash: result.passwordHash,
    ...(result.hashingAlgorithm !== undefined && { hashingAlgorithm: result.hashingAlgorithm }),
    warnings: result.warnings,
    ...(result.strippedBy !== undefined && { strippedBy: result.strippedBy }),
  };
}

function formatInspection(result: PrepareHashResult): string {
  if (!result.ok) return `rejected (${result.code}): ${result.reason}\n`;
  const label = hashFamilyLabel(result.family);
  // A label may already carry the family's name ("scrypt variant (vendor_scrypt)"): it is said once.
  const lines = [`family: ${label.includes(result.family) ? label : `${label} (${result.family})`}`, `passwordHash: ${result.passwordHash}`];
  if (result.hashingAlgorithm !== undefined) lines.push(`hashingAlgorithm: ${result.hashingAlgorithm}`);
  if (result.strippedBy !== undefined) lines.push(`stripped: ${result.strippedBy}`);
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  if (result.family === 'vendor_scrypt') lines.push(`note: ${signerKeyReminder()}`);
  return `${lines.join('\n')}\n`;
}

function legacyInspectionJson(legacy: LegacyHashReading): Record<string, unknown> {
  const checkable = legacy.usable ? { parameters: legacy.parameters } : { code: legacy.code, reason: legacy.reason };
  return {
    rejected: true,
    code: 'unsupported_family',
    reason: LEGACY_HASH_ADVICE,
    legacy: { family: legacy.family, label: legacyHashFamilyLabel(legacy.family), checkable: legacy.usable, ...checkable },
  };
}

/** A legacy hash is not importable, so it is refused; the lines say which family it is and what becomes of its users. */
function formatLegacyInspection(legacy: LegacyHashReading): string {
  const lines = [`family: ${legacyHashFamilyLabel(legacy.family)} (${legacy.family}), a legacy family`];
  if (legacy.usable) lines.push(`parameters: ${legacy.parameters}`);
  else lines.push(`cannot be checked (${legacy.code}): ${legacy.reason}`);
  lines.push(`rejected (unsupported_family): ${LEGACY_HASH_ADVICE}`);
  return `${lines.join('\n')}\n`;
}

type PasswordInput = Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/** The password as a Secret: a prompt that shows nothing on a terminal, else the next line of standard input. */
async function readPassword(io: CommandIO, lines: StdinLines): Promise<Secret | undefined> {
  const stdin = io.stdin as PasswordInput;
  const text = stdin.isTTY === true && typeof stdin.setRawMode === 'function' ? await promptHidden(stdin, io) : await lines.next();
  return text === undefined ? undefined : new Secret(text);
}

/** Raw mode, so the terminal echoes nothing; Enter ends, Backspace deletes, Ctrl-C cancels. */
function promptHidden(stdin: PasswordInput, io: CommandIO): Promise<string | undefined> {
  io.stderr.write('Password (nothing is shown): ');
  stdin.setRawMode?.(true);
  return new Promise((resolvePassword) => {
    const decoder = new StringDecoder('utf8');
    let typed = '';
    const finish = (password: string | undefined) => {
      stdin.off('data', onData).off('end', onEnd);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write('\n');
      resolvePassword(password);
    };
    const onData = (chunk: Buffer | string) => {
      for (const character of typeof chunk === 'string' ? chunk : decoder.write(chunk)) {
        if (character === '\r' || character === '\n' || character === '\u0004') return finish(typed);
        if (character === '\u0003') return finish(undefined);
        if (character === '\u007f' || character === '\b') typed = [...typed].slice(0, -1).join('');
        else if (character >= ' ') typed += character;
      }
    };
    const onEnd = () => finish(typed.length > 0 ? typed : undefined);
    stdin.on('data', onData).once('end', onEnd);
    stdin.resume();
  });
}
