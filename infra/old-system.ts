import type { OldSystemSettings } from 'core-client/login-time';
import { z } from 'zod';
import { CONFIG_NAMESPACE, setCommand } from './config-terms.js';

/*
 * The old system the login-time service asks for the users parked without a usable hash (`serve --verify-with FILE`,
 * docs/login-time.md): its settings file's JSON in one plain key, its one secret in a secret key. The program writes
 * the file into the service's container with the secret field naming an environment variable, whose value comes from
 * the secret the way the service's own key does.
 */

/** Where the settings file is inside the service's container. */
export const VERIFY_WITH_DIRECTORY = '/etc/core-migrate';
export const VERIFY_WITH_FILE_NAME = 'verify-with.json';
export const VERIFY_WITH_PATH = `${VERIFY_WITH_DIRECTORY}/${VERIFY_WITH_FILE_NAME}`;
/** The environment variable the settings file names for the old system's secret. */
export const OLD_SYSTEM_SECRET_ENV = 'LOGIN_MIGRATION_OLD_SYSTEM_SECRET';

type OldSystemKind = OldSystemSettings['kind'];

/** The field of each kind's settings that holds its secret: checked against core-client's schema by the type. */
const SECRET_FIELD = {
  firebase: 'apiKey',
  cognito: 'clientSecret',
  openid: 'clientSecret',
  http: 'bearerToken',
  okta: 'apiToken',
} as const satisfies { [Kind in OldSystemKind]: keyof Extract<OldSystemSettings, { kind: Kind }> };

/** Firebase is asked with the project's Web API key, always; the others' secret is for clients that have one. */
const SECRET_REQUIRED: Record<OldSystemKind, boolean> = { firebase: true, cognito: false, openid: false, http: false, okta: false };

const KINDS = Object.keys(SECRET_FIELD) as OldSystemKind[];
const EXAMPLE = `'{"kind": "cognito", "region": "eu-west-1", "clientId": "<app client id>"}'`;

/**
 * `loginServiceVerifyWith`: the settings file's JSON without its secret. Only what the program needs is checked here
 * (infra takes only types from core-client); the service checks the rest of it when it starts, as on the command line.
 */
export const VerifyWithSchema = z
  .string()
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({
        code: 'custom',
        message: `${CONFIG_NAMESPACE}:loginServiceVerifyWith is not JSON: run \`${setCommand('loginServiceVerifyWith', EXAMPLE)}\` (the --verify-with file of docs/login-time.md, without its secret).`,
      });
      return z.NEVER;
    }
  })
  .pipe(
    z.looseObject({
      kind: z.enum(KINDS, {
        error: `${CONFIG_NAMESPACE}:loginServiceVerifyWith needs "kind": one of ${KINDS.join(', ')} (docs/login-time.md): e.g. \`${setCommand('loginServiceVerifyWith', EXAMPLE)}\`.`,
      }),
    }),
  );
export type VerifyWith = z.infer<typeof VerifyWithSchema>;

/** Why the old system's keys cannot be used together with the rest of the config; the sentences never quote the secret. */
export function verifyWithProblems(config: {
  loginService: boolean;
  loginServiceVerifyWith?: VerifyWith | undefined;
  loginServiceVerifyWithSecret?: string | undefined;
}): string[] {
  const { loginServiceVerifyWith: settings, loginServiceVerifyWithSecret: secret } = config;
  if (settings === undefined) {
    return secret === undefined
      ? []
      : [
          `${CONFIG_NAMESPACE}:loginServiceVerifyWithSecret is set but loginServiceVerifyWith is not: set the old system's settings (\`${setCommand('loginServiceVerifyWith', EXAMPLE)}\`), or \`pulumi config rm ${CONFIG_NAMESPACE}:loginServiceVerifyWithSecret\`.`,
        ];
  }
  const problems: string[] = [];
  if (!config.loginService) {
    problems.push(
      `${CONFIG_NAMESPACE}:loginServiceVerifyWith is set but loginService is not true: only the login-time service asks the old system. Run \`${setCommand('loginService', 'true')}\`, or \`pulumi config rm ${CONFIG_NAMESPACE}:loginServiceVerifyWith\`.`,
    );
  }
  const field = SECRET_FIELD[settings.kind];
  if (field in settings) {
    problems.push(
      `${CONFIG_NAMESPACE}:loginServiceVerifyWith has "${field}": leave it out, the program fills it in; the value goes in \`${setCommand('loginServiceVerifyWithSecret', '<value>', true)}\`.`,
    );
  }
  if (SECRET_REQUIRED[settings.kind] && secret === undefined) {
    problems.push(
      `${CONFIG_NAMESPACE}:loginServiceVerifyWith is ${settings.kind} but loginServiceVerifyWithSecret is not set: run \`${setCommand('loginServiceVerifyWithSecret', '<the Web API key>', true)}\`.`,
    );
  }
  return problems;
}

/** The settings file the service reads: the stack's JSON, its secret field naming the variable that holds the secret. */
export function verifyWithFileContent(settings: VerifyWith, withSecret: boolean): string {
  const file = withSecret ? { ...settings, [SECRET_FIELD[settings.kind]]: { env: OLD_SYSTEM_SECRET_ENV } } : settings;
  return `${JSON.stringify(file, null, 2)}\n`;
}
