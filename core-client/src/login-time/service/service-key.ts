import { isAbsolute, resolve } from 'node:path';
import { readFailureReason, readSettingText } from '../../files/setting-text.js';
import { Problem, type ProblemWords } from '../../problem.js';
import { Secret } from '../../secret.js';

/** The service's own key: never the core's, so a backend that calls the service cannot call the core with it. */
export const SERVICE_KEY_ENV = 'LOGIN_MIGRATION_SERVICE_KEY';
export const SERVICE_KEY_FLAG = '--service-key-file';
/** Short keys can be guessed over the network. */
export const MIN_SERVICE_KEY_LENGTH = 16;

/** No key; a key file that cannot be read or a key too short; an address the service cannot listen on. */
export type LoginServiceProblemCode = 'serviceKeyMissing' | 'serviceKeyUnusable' | 'serviceCannotListen';
/** The settings (keys of the settings table) that fix a LoginServiceSettingError. */
export type LoginServiceSetting = 'serviceKeyFile' | 'port';

/** A setting of `login-migration serve` that stops it from starting (exit 2); its words never hold the key. */
export class LoginServiceSettingError extends Problem<LoginServiceSetting, LoginServiceProblemCode> {
  override readonly name = 'LoginServiceSettingError';
  constructor(code: LoginServiceProblemCode, setting: LoginServiceSetting, words: ProblemWords<LoginServiceSetting>, options?: ErrorOptions) {
    super(code, 'setting', setting, words, options);
  }
}

/** The service's key: from the file the flag names, else from the environment; at least 16 characters. */
export async function resolveServiceKey(input: { file?: string | undefined; env: NodeJS.ProcessEnv; cwd: string }): Promise<Secret | LoginServiceSettingError> {
  let key: string;
  let source: string;
  if (input.file !== undefined && input.file !== '') {
    const fullPath = isAbsolute(input.file) ? input.file : resolve(input.cwd, input.file);
    source = `the service key file ${fullPath}`;
    try {
      key = (await readSettingText(fullPath)).trim();
    } catch (error) {
      return new LoginServiceSettingError('serviceKeyUnusable', 'serviceKeyFile', `Cannot read ${source} (${readFailureReason(error)}).`);
    }
  } else {
    const fromEnv = input.env[SERVICE_KEY_ENV]?.trim();
    if (fromEnv === undefined || fromEnv === '') {
      return new LoginServiceSettingError(
        'serviceKeyMissing',
        'serviceKeyFile',
        `The service needs its own key (not the core's): put it in a file and pass {setting}, or set ${SERVICE_KEY_ENV}.`,
      );
    }
    key = fromEnv;
    source = SERVICE_KEY_ENV;
  }
  if (key.length < MIN_SERVICE_KEY_LENGTH) {
    return new LoginServiceSettingError(
      'serviceKeyUnusable',
      'serviceKeyFile',
      `The key in ${source} is shorter than ${MIN_SERVICE_KEY_LENGTH} characters: use a long random one (e.g. openssl rand -hex 32).`,
    );
  }
  return new Secret(key);
}
