import { readFailureReason, readSettingText } from '../files/setting-text.js';
import { resolve } from 'node:path';
import { HashConfigError, parseHashConfig, type HashConfig } from '../hashes/hash-config.js';
import { prefixRuleFromOption, type PrefixRule } from '../hashes/prefix-rules.js';
import type { PlanOptions } from '../plan/plan-source.js';
import { phoneRegionOf } from '../plan/phone-number.js';
import { buildProviderMap } from '../plan/providers.js';
import { parseRoleMap, parseRolesFile, type RoleRules } from '../roles/plan-roles.js';
import { parseFieldMapping, type FieldMapping } from '../sources/generic/field-mapping.js';
import { settingProblem, type SettingProblem } from '../settings/setting-problem.js';
import { Problem } from '../problem.js';
import { readOldSystemSettings } from '../login-time/old-system/old-system-settings.js';
import type { MigrationSettings } from '../settings/settings.js';

export interface PlanOptionsContext {
  /** The folder the command runs in: every file a setting names is read from there. */
  cwd: string;
  /** Hash parameters typed or pasted in the app: used instead of the `hashConfig` file. */
  hashConfig?: HashConfig;
}

/** How the plan reads and plans the export, from the settings; the first setting that cannot be used is named. */
export async function planOptionsOf(settings: MigrationSettings, context: PlanOptionsContext): Promise<PlanOptions | SettingProblem> {
  const { cwd } = context;
  const options: PlanOptions = {
    duplicates: settings.duplicates,
    disabled: settings.disabled,
    passwordless: settings.passwordless,
    emailLink: settings.emailLink,
    loginTime: settings.loginTime !== undefined,
  };
  if (settings.format !== undefined) options.format = settings.format;
  if (settings.auth0PasswordFile !== undefined) options.auth0PasswordFile = resolve(cwd, settings.auth0PasswordFile);
  if (settings.defaultRegion !== undefined) {
    const region = phoneRegionOf(settings.defaultRegion);
    if (region === undefined) {
      return settingProblem(
        'defaultRegionInvalid',
        'defaultRegion',
        `{setting} "${settings.defaultRegion}" is not a country the phone number rules know: give its ISO 3166 code, e.g. GB, US, DE`,
      );
    }
    options.defaultRegion = region;
  }

  if (settings.verifyWith !== undefined) {
    if (settings.loginTime === undefined) {
      return settingProblem(
        'verifyWithoutLoginTime',
        'verifyWith',
        '{setting} needs --login-time <store>: the users the old system checks wait there for their first sign-in',
      );
    }
    const oldSystem = await readOldSystemSettings(settings.verifyWith, cwd);
    if (oldSystem instanceof Problem) return oldSystem;
    options.oldSystem = oldSystem.kind;
  }

  if (settings.mapping !== undefined || settings.map.length > 0) {
    const mapping = await fieldMappingOf(settings, cwd);
    if (mapping instanceof Problem) return mapping;
    options.mapping = mapping;
  }

  const hashConfig = context.hashConfig ?? (await hashConfigOf(settings, cwd));
  if (hashConfig instanceof Problem) return hashConfig;
  if (hashConfig !== undefined) options.hashConfig = hashConfig;

  const prefixRules = prefixRulesOf(settings);
  if (prefixRules instanceof Problem) return prefixRules;
  if (prefixRules.length > 0) options.prefixRules = prefixRules;

  const providerMap = buildProviderMap(settings.providerMap);
  if (providerMap instanceof Problem) return providerMap;
  options.providerMap = providerMap;

  const roles = await roleRulesOf(settings, cwd);
  if (roles instanceof Problem) return roles;
  if (roles !== undefined) options.roles = roles;
  return options;
}

/** Where roles are read and what they become; undefined when no roles are read (no path, or `--no-roles`). */
export async function roleRulesOf(settings: MigrationSettings, cwd: string): Promise<RoleRules | SettingProblem | undefined> {
  if (settings.rolesFrom === undefined) {
    if (settings.roleMap.length > 0)
      return settingProblem('rolesFromNeeded', 'roleMap', '{setting} renames roles read from a path: name the path with --roles-from too');
    if (settings.rolesFile !== undefined)
      return settingProblem('rolesFromNeeded', 'rolesFile', '{setting} gives permissions to roles read from a path: name the path with --roles-from too');
    return undefined;
  }
  if (!settings.roles) return undefined;
  const rename = parseRoleMap(settings.roleMap);
  if (rename instanceof Problem) return rename;
  if (settings.rolesFile === undefined) return { from: settings.rolesFrom, rename };
  const text = await readSettingFile(settings, 'rolesFile', cwd);
  if (text instanceof Problem) return text;
  const permissions = parseRolesFile(text, resolve(cwd, settings.rolesFile));
  if (permissions instanceof Problem) return permissions;
  return { from: settings.rolesFrom, rename, permissions };
}

/** The `hashConfig` file's parameters; undefined when no file is set. */
export async function hashConfigOf(settings: MigrationSettings, cwd: string): Promise<HashConfig | SettingProblem | undefined> {
  return settings.hashConfig === undefined ? undefined : readHashConfigFile(settings.hashConfig, cwd);
}

/** A hash_config file's parameters, or why it cannot be used, naming the file (`hash inspect --hash-config` reads one too). */
export async function readHashConfigFile(path: string, cwd: string): Promise<HashConfig | SettingProblem> {
  const text = await readFileOfSetting('hashConfig', path, cwd);
  if (text instanceof Problem) return text;
  const parsed = parseHashConfig(text);
  // The parser knows the text only: the words gain the file it came from.
  return parsed instanceof HashConfigError ? new HashConfigError(`{setting} ${path}: ${parsed.message}`, parsed.field) : parsed;
}

export function prefixRulesOf(settings: MigrationSettings): PrefixRule[] | SettingProblem {
  const rules: PrefixRule[] = [];
  for (const prefix of settings.stripPrefix) {
    const rule = prefixRuleFromOption(prefix);
    if (rule instanceof Problem) return rule;
    rules.push(rule);
  }
  return rules;
}

/** A mapping file, then `field=column` entries over it. */
async function fieldMappingOf(settings: MigrationSettings, cwd: string): Promise<FieldMapping | SettingProblem> {
  let fromFile: FieldMapping | undefined;
  if (settings.mapping !== undefined) {
    const text = await readSettingFile(settings, 'mapping', cwd);
    if (text instanceof Problem) return text;
    const parsed = parseFieldMapping(text, resolve(cwd, settings.mapping));
    if (parsed instanceof Error) return settingProblem('mappingInvalid', 'mapping', parsed.message);
    fromFile = parsed;
  }
  const overrides: Record<string, string> = {};
  for (const entry of settings.map) {
    const separator = entry.indexOf('=');
    if (separator < 1) return settingProblem('mapInvalid', 'map', `{setting} "${entry}" must look like field=column, e.g. email=mail`);
    overrides[entry.slice(0, separator).trim()] = entry.slice(separator + 1).trim();
  }
  const mapping = parseFieldMapping({ ...fromFile, ...overrides }, settingsMapOrigin);
  return mapping instanceof Error ? settingProblem('mapInvalid', 'map', mapping.message) : mapping;
}

const settingsMapOrigin = 'the field mapping';

async function readSettingFile(settings: MigrationSettings, key: 'hashConfig' | 'mapping' | 'rolesFile', cwd: string): Promise<string | SettingProblem> {
  return readFileOfSetting(key, settings[key] ?? '', cwd);
}

async function readFileOfSetting(key: 'hashConfig' | 'mapping' | 'rolesFile', given: string, cwd: string): Promise<string | SettingProblem> {
  const path = resolve(cwd, given);
  try {
    return await readSettingText(path);
  } catch (error) {
    return settingProblem('settingFileUnreadable', key, `{setting} ${path}: cannot read the file (${readFailureReason(error)})`);
  }
}
