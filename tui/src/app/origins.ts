import { ConnectionEnv } from 'core-client';
import { settingFlag, type MigrationSettings } from 'core-client/settings';
import type { Draft } from './draft.js';

/**
 * The settings a field shows as one value that the app may have been given instead of typed: addresses, names and
 * files. (Lists, choices and switches always show what they hold; their defaults are no one's choice to tell.)
 */
export const originKeys = [
  'core',
  'stack',
  'tenant',
  'app',
  'apiKeyFile',
  'caFile',
  'file',
  'auth0PasswordFile',
  'mapping',
  'hashConfig',
  'journal',
  'report',
  'verifyCredentials',
] as const satisfies readonly (keyof Draft & keyof MigrationSettings)[];
export type OriginKey = (typeof originKeys)[number];

/** Where a value the app opened with came from, as the operator would name it: `--tenant`, `CORE_URL`. */
export type FieldOrigins = Partial<Record<OriginKey, { from: 'flag' | 'environment'; name: string }>>;

export function isOriginKey(key: string): key is OriginKey {
  return (originKeys as readonly string[]).includes(key);
}

/**
 * The fields' first values and where each came from: every value the command line gave (the app's settings are the
 * command line's), and the core's address from CORE_URL when no --core was given — the address the connection uses
 * then, so it is what the field shows, not a placeholder.
 */
export function initialOrigins(settings: MigrationSettings, env: NodeJS.ProcessEnv): { patch: Partial<Draft>; origins: FieldOrigins } {
  const origins: FieldOrigins = {};
  for (const key of originKeys) {
    const value = settings[key];
    const given = Array.isArray(value) ? value.length > 0 : value !== undefined && value !== '';
    if (!given) continue;
    const flag = settingFlag(key).flag;
    origins[key] = { from: 'flag', name: flag.startsWith('--') ? flag : 'the command line' };
  }
  const environmentCore = env[ConnectionEnv.coreUrl]?.trim() ?? '';
  if (origins.core !== undefined || environmentCore === '') return { patch: {}, origins };
  return { patch: { core: environmentCore }, origins: { ...origins, core: { from: 'environment', name: ConnectionEnv.coreUrl } } };
}

/** The origins still true after a change of the draft: a value the operator changed is theirs now. */
export function originsAfter(origins: FieldOrigins, before: Draft, after: Draft): FieldOrigins {
  let kept = origins;
  for (const key of originKeys) {
    if (kept[key] === undefined || before[key] === after[key]) continue;
    kept = { ...kept };
    delete kept[key];
  }
  return kept;
}

/** The settings' keys whose values the environment gives: left out of the command line, as the operator left them. */
export function environmentKeys(origins: FieldOrigins): OriginKey[] {
  return originKeys.filter((key) => origins[key]?.from === 'environment');
}

/** "from --tenant", "from CORE_URL". */
export function describeOrigin(origin: FieldOrigins[OriginKey]): string | undefined {
  return origin === undefined ? undefined : `from ${origin.name}`;
}

/** Whether the api-key the app sends is the one the operator typed (not one CORE_API_KEY gave). */
export function apiKeyTyped(state: { apiKey: { isEmpty: boolean }; apiKeyFromEnvironment: boolean }): boolean {
  return !state.apiKey.isEmpty && !state.apiKeyFromEnvironment;
}
