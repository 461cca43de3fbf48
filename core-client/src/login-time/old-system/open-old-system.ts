import { Secret } from '../../secret.js';
import type { OldSystemVerifier } from './old-system-verifier.js';
import { readOldSystemSecret, type OldSystemSettings, type OldSystemSettingsProblem, type SecretSource } from './old-system-settings.js';

/**
 * The verifier the `--verify-with` settings describe, its secrets read now (from their files or the environment).
 * Each kind's module is loaded only when that kind is asked (the AWS SDK only for Cognito).
 */
export async function openOldSystemVerifier(
  settings: OldSystemSettings,
  context: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<OldSystemVerifier | OldSystemSettingsProblem> {
  const secret = (source: SecretSource | undefined, what: string): Promise<Secret | OldSystemSettingsProblem | undefined> =>
    source === undefined ? Promise.resolve(undefined) : readOldSystemSecret(source, what, context);
  switch (settings.kind) {
    case 'firebase': {
      const apiKey = await readOldSystemSecret(settings.apiKey, 'Firebase Web API key', context);
      if (!(apiKey instanceof Secret)) return apiKey;
      const { firebaseVerifier } = await import('./firebase-verifier.js');
      return firebaseVerifier(settings, apiKey);
    }
    case 'cognito': {
      const clientSecret = await secret(settings.clientSecret, 'Cognito app client secret');
      if (clientSecret !== undefined && !(clientSecret instanceof Secret)) return clientSecret;
      const { cognitoVerifier } = await import('./cognito-verifier.js');
      return cognitoVerifier(settings, clientSecret);
    }
    case 'openid': {
      const clientSecret = await secret(settings.clientSecret, 'OpenID client secret');
      if (clientSecret !== undefined && !(clientSecret instanceof Secret)) return clientSecret;
      const { openIdVerifier } = await import('./openid-verifier.js');
      return openIdVerifier(settings, clientSecret);
    }
    case 'okta': {
      const apiToken = await secret(settings.apiToken, 'Okta API token');
      if (apiToken !== undefined && !(apiToken instanceof Secret)) return apiToken;
      const { oktaVerifier } = await import('./okta-verifier.js');
      return oktaVerifier(settings, apiToken);
    }
    case 'http': {
      const bearerToken = await secret(settings.bearerToken, 'old backend token');
      if (bearerToken !== undefined && !(bearerToken instanceof Secret)) return bearerToken;
      const { httpVerifier } = await import('./http-verifier.js');
      return httpVerifier(settings, bearerToken);
    }
  }
}
