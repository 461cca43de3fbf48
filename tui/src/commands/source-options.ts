import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { buildProviderMap, ProviderMapError } from 'core-client/plan/providers';
import { parseFieldMapping, type FieldMapping } from 'core-client/sources/generic/field-mapping';
import { parseHashConfig } from 'core-client/hashes/hash-config';
import { prefixRuleFromOption } from 'core-client/hashes/prefix-rules';
import { sourceFormats } from 'core-client/sources/source-format';
import type { PlanOptions } from 'core-client/plan/plan-source';

/** The flags that say how to read and plan an export; `plan` and `push` share them so they plan alike. */
export interface SourceFlags {
  format?: string;
  mapping?: string;
  map?: string[];
  auth0PasswordFile?: string;
  hashConfig?: string;
  stripPrefix?: string[];
  providerMap?: string[];
  duplicates?: 'first-wins' | 'last-wins';
  disabled?: 'skip' | 'import';
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function addSourceOptions(command: Command): Command {
  return command
    .addOption(new Option('--format <format>', 'force the export format instead of detecting it').choices([...sourceFormats]))
    .option('--mapping <file>', 'field mapping file for generic NDJSON/JSON/CSV exports')
    .option('--map <field=column>', 'map one field of a generic export, e.g. --map email=mail (repeatable)', collect)
    .option('--auth0-password-file <file>', 'the Auth0 password-hash export to join with the user export')
    .option('--hash-config <file>', "the provider's hash_config block or JSON (vendor scrypt users)")
    .option('--strip-prefix <prefix>', 'strip this wrapper from hashes: exact text, or re:<regex> (repeatable)', collect)
    .option('--provider-map <id=name>', 'map an export provider id to a short provider name (repeatable)', collect)
    .addOption(
      new Option('--duplicates <policy>', 'which of two records with one email is imported').choices(['first-wins', 'last-wins']).default('first-wins'),
    )
    .addOption(
      new Option('--disabled <policy>', 'accounts disabled in the old system: left out, or imported with disabled: true in their metadata')
        .choices(['skip', 'import'])
        .default('skip'),
    );
}

export class SourceFlagsError extends Error {
  override readonly name = 'SourceFlagsError';
}

/** The plan's options from the flags; every file a flag names is read from the command's folder `cwd`. */
export async function planOptionsFromFlags(flags: SourceFlags, cwd: string): Promise<PlanOptions | SourceFlagsError> {
  const options: PlanOptions = {};
  if (flags.format !== undefined) options.format = flags.format as NonNullable<PlanOptions['format']>;
  if (flags.auth0PasswordFile !== undefined) options.auth0PasswordFile = resolve(cwd, flags.auth0PasswordFile);
  if (flags.duplicates !== undefined) options.duplicates = flags.duplicates;
  if (flags.disabled !== undefined) options.disabled = flags.disabled;

  if (flags.mapping !== undefined || (flags.map ?? []).length > 0) {
    const mapping = await fieldMappingFromFlags(flags.mapping === undefined ? undefined : resolve(cwd, flags.mapping), flags.map ?? []);
    if (mapping instanceof SourceFlagsError) return mapping;
    options.mapping = mapping;
  }

  if (flags.hashConfig !== undefined) {
    const text = await readText(resolve(cwd, flags.hashConfig), '--hash-config');
    if (text instanceof SourceFlagsError) return text;
    const hashConfig = parseHashConfig(text);
    if (hashConfig instanceof Error) return new SourceFlagsError(`${flags.hashConfig}: ${hashConfig.message}`);
    options.hashConfig = hashConfig;
  }

  const prefixRules = [];
  for (const prefix of flags.stripPrefix ?? []) {
    const rule = prefixRuleFromOption(prefix);
    if (rule instanceof Error) return new SourceFlagsError(rule.message);
    prefixRules.push(rule);
  }
  if (prefixRules.length > 0) options.prefixRules = prefixRules;

  const providerMap = buildProviderMap(flags.providerMap ?? []);
  if (providerMap instanceof ProviderMapError) return new SourceFlagsError(providerMap.message);
  options.providerMap = providerMap;
  return options;
}

/** A mapping file, then `--map field=column` flags over it. */
async function fieldMappingFromFlags(file: string | undefined, flags: readonly string[]): Promise<FieldMapping | SourceFlagsError> {
  let fromFile: FieldMapping | undefined;
  if (file !== undefined) {
    const text = await readText(file, '--mapping');
    if (text instanceof SourceFlagsError) return text;
    const parsed = parseFieldMapping(text, file);
    if (parsed instanceof Error) return new SourceFlagsError(parsed.message);
    fromFile = parsed;
  }
  const overrides: Record<string, string> = {};
  for (const flag of flags) {
    const separator = flag.indexOf('=');
    if (separator < 1) return new SourceFlagsError(`--map "${flag}" must look like field=column, e.g. --map email=mail`);
    overrides[flag.slice(0, separator).trim()] = flag.slice(separator + 1).trim();
  }
  const mapping = parseFieldMapping({ ...fromFile, ...overrides }, '--map');
  return mapping instanceof Error ? new SourceFlagsError(mapping.message) : mapping;
}

async function readText(path: string, flag: string): Promise<string | SourceFlagsError> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    return new SourceFlagsError(`${flag} ${path}: cannot read the file (${code})`);
  }
}
