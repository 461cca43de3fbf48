import * as pulumi from '@pulumi/pulumi';
import { PLAIN_KEYS, SECRET_KEYS, StackConfigError, isSecretKey, readStackConfig, type PlainStackConfig, type SecretKey, type StackConfig } from './config.js';

/** The validated stack config as the program uses it: the secret keys only ever as Pulumi secrets. */
export type ProgramConfig = PlainStackConfig & { apiKey: pulumi.Output<string> } & { [K in Exclude<SecretKey, 'apiKey'>]?: pulumi.Output<string> };

type Verdict = { config: PlainStackConfig; present: Record<Exclude<SecretKey, 'apiKey'>, boolean> } | StackConfigError;

/**
 * Reads the stack config with `getSecret` for the secret keys and validates everything inside one apply, so a
 * secret is never a plain variable of the program. The program awaits the verdict (sentences, plain values and
 * which secrets are set, never a secret's value) before it declares any resource.
 */
export async function loadStackConfig(config: pulumi.Config): Promise<ProgramConfig | StackConfigError> {
  const plain: Partial<Record<string, string>> = {};
  for (const key of PLAIN_KEYS) {
    // A typed key (e.g. the integer hostPort) may arrive as a JSON number; the validator reads text.
    const value: unknown = config.get(key);
    if (value !== undefined) plain[key] = String(value);
  }
  const secrets = pulumi.all(SECRET_KEYS.map((key) => config.getSecret(key)));
  const parsed = secrets.apply((values) => readStackConfig({ get: (key) => (isSecretKey(key) ? values[SECRET_KEYS.indexOf(key)] : plain[key]) }));

  const verdict = await settle(
    parsed.apply((result): Verdict => {
      if (result instanceof StackConfigError) return result;
      const {
        apiKey: _apiKey,
        signerKey,
        registryPassword,
        loginServiceKey,
        loginServiceStoreUrl,
        loginServiceVerifyWithSecret,
        databaseUrl,
        ...rest
      } = result;
      return {
        config: rest,
        present: {
          signerKey: signerKey !== undefined,
          registryPassword: registryPassword !== undefined,
          loginServiceKey: loginServiceKey !== undefined,
          loginServiceStoreUrl: loginServiceStoreUrl !== undefined,
          loginServiceVerifyWithSecret: loginServiceVerifyWithSecret !== undefined,
          databaseUrl: databaseUrl !== undefined,
        },
      };
    }),
  );
  if (verdict instanceof StackConfigError) return verdict;

  const secret = (key: SecretKey): pulumi.Output<string> =>
    pulumi.secret(
      parsed.apply((result: StackConfig | StackConfigError) => {
        const value = result instanceof StackConfigError ? undefined : result[key];
        if (value === undefined) throw new Error(`${key} was validated as set but is missing; this is a bug in infra/.`);
        return value;
      }),
    );
  return {
    ...verdict.config,
    apiKey: secret('apiKey'),
    ...(verdict.present.signerKey ? { signerKey: secret('signerKey') } : {}),
    ...(verdict.present.registryPassword ? { registryPassword: secret('registryPassword') } : {}),
    ...(verdict.present.loginServiceKey ? { loginServiceKey: secret('loginServiceKey') } : {}),
    ...(verdict.present.loginServiceStoreUrl ? { loginServiceStoreUrl: secret('loginServiceStoreUrl') } : {}),
    ...(verdict.present.loginServiceVerifyWithSecret ? { loginServiceVerifyWithSecret: secret('loginServiceVerifyWithSecret') } : {}),
    ...(verdict.present.databaseUrl ? { databaseUrl: secret('databaseUrl') } : {}),
  };
}

/** An output's value as a promise; used only for values that are not secrets. */
function settle<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => {
    output.apply((value) => {
      resolve(value);
      return value;
    });
  });
}
