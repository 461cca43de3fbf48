import { defaultSettings, type MigrationSettings } from './settings.js';
import { settingFlags, type SettingCommand } from './setting-flags.js';
import { SERVICE_KEY_FLAG } from '../login-time/service/service-key.js';

/** The file the service's own key is read from in the command a push prints: made once, then given to the backend. */
export const SUGGESTED_SERVICE_KEY_FILE = 'service.key';

/**
 * The shell line, printed before that command, that makes the key file: a long random key, readable by its owner
 * only, and never over a key already there (the backend may hold it).
 */
export const MAKE_SERVICE_KEY_LINE = `[ -e ${SUGGESTED_SERVICE_KEY_FILE} ] || (umask 077 && openssl rand -hex 32 > ${SUGGESTED_SERVICE_KEY_FILE})`;

/**
 * The command line that runs `command` with these settings: the export, then every setting that differs from its
 * default, in the table's order. Both faces print it to repeat or resume a run, so it is derived, never written by
 * hand; the api-key is never in it (it is not a setting).
 */
export function commandLineOf(settings: MigrationSettings, command: SettingCommand = 'push'): string[] {
  const args: string[] = [command];
  for (const entry of settingFlags) {
    if (!entry.commands.includes(command)) continue;
    const value = settings[entry.key];
    const fallback = defaultSettings[entry.key];
    switch (entry.kind.type) {
      case 'argument':
        if (typeof value === 'string') args.push(value);
        break;
      case 'list':
        if (Array.isArray(value)) for (const item of value) args.push(entry.flag, item);
        break;
      case 'switch':
        if (value === true) args.push(entry.flag);
        break;
      case 'negatable':
        if (value === false) args.push(entry.flag);
        break;
      default:
        if (value !== undefined && value !== fallback) args.push(entry.flag, String(value));
    }
  }
  return args;
}

/**
 * The service that migrates the users a push parked (`--login-time`) at their first sign-in, on the push's store and
 * core, with its own key from `SUGGESTED_SERVICE_KEY_FILE` (it does not start without one); undefined without a
 * login-time store.
 */
export function loginServiceCommandOf(settings: MigrationSettings): string[] | undefined {
  if (settings.loginTime === undefined) return undefined;
  const [, ...connection] = commandLineOf(settings, 'serve');
  return ['login-migration', 'serve', '--store', settings.loginTime, ...connection, SERVICE_KEY_FLAG, SUGGESTED_SERVICE_KEY_FILE];
}

/** Quotes an argument for a POSIX shell only when it needs it, so a printed command can be pasted as it is. */
export function shellQuote(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, `'\\''`)}'`;
}

/** One line a shell runs as it is: `invocation` (`core-migrate`, or `npx core-migrate`) and the quoted arguments. */
export function formatCommandLine(invocation: string, args: readonly string[]): string {
  return [invocation, ...args.map(shellQuote)].join(' ');
}
