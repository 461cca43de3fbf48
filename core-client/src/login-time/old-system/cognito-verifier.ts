import { createHmac } from 'node:crypto';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { Secret } from '../../secret.js';
import { OldSystemHttp } from './old-system-http.js';
import type { OldSystemSettings } from './old-system-settings.js';
import type { PasswordVerdict, OldSystemVerifier } from './old-system-verifier.js';

type CognitoSettings = Extract<OldSystemSettings, { kind: 'cognito' }>;

/**
 * The exceptions of InitiateAuth that say the password does not open the account: wrong, no such user, disabled
 * ("User is disabled."), not confirmed, or reset by an administrator. The hosted service answers an unknown user with
 * UserNotFoundException, or NotAuthorizedException when user-existence errors are prevented; cognito-local answers a
 * wrong password InvalidPasswordException.
 */
const WRONG = new Set([
  'NotAuthorizedException',
  'UserNotFoundException',
  'InvalidPasswordException',
  'UserNotConfirmedException',
  'PasswordResetRequiredException',
]);
const BUSY = new Set(['TooManyRequestsException', 'LimitExceededException', 'TooManyFailedAttemptsException']);

/** What Cognito wants beside the username when the app client has a secret (its developer guide, "Computing secret hash values"). */
export function cognitoSecretHash(username: string, clientId: string, clientSecret: Secret): string {
  return createHmac('sha256', clientSecret.reveal())
    .update(username + clientId, 'utf8')
    .digest('base64');
}

/**
 * An AWS Cognito user pool asked through the AWS SDK's client with InitiateAuth USER_PASSWORD_AUTH (a public call:
 * no AWS credentials). Tokens are a right password, and so is any challenge, as Cognito asks for a second factor or
 * a new password only after the password was right. One attempt per sign-in: the SDK's retries are off, as the
 * backend is answered "try later" instead.
 */
export function cognitoVerifier(settings: CognitoSettings, clientSecret: Secret | undefined): OldSystemVerifier {
  const client = new CognitoIdentityProviderClient({
    region: settings.region,
    ...(settings.endpoint !== undefined && { endpoint: settings.endpoint }),
    maxAttempts: 1,
    requestHandler: { connectionTimeout: settings.timeoutMs, requestTimeout: settings.timeoutMs },
  });
  const location = settings.endpoint ?? `https://cognito-idp.${settings.region}.amazonaws.com`;
  // Readiness asks where the SDK sends InitiateAuth, as its own resolver says (China's hosts included), a plain GET
  // that names no operation and carries nothing: an answer proves the pool's API is there (cognito-local says 404).
  const sdkEndpoint = client.config.endpointProvider({ Region: settings.region, ...(settings.endpoint !== undefined && { Endpoint: settings.endpoint }) }).url;
  const probe = new OldSystemHttp(settings.timeoutMs);
  return {
    kind: 'cognito',
    location,
    async check({ email, password }): Promise<PasswordVerdict> {
      const parameters: Record<string, string> = { USERNAME: email, PASSWORD: password.reveal() };
      if (clientSecret !== undefined) parameters['SECRET_HASH'] = cognitoSecretHash(email, settings.clientId, clientSecret);
      try {
        const answer = await client.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: settings.clientId, AuthParameters: parameters }), {
          abortSignal: AbortSignal.timeout(settings.timeoutMs),
        });
        return answer.AuthenticationResult !== undefined || answer.ChallengeName !== undefined
          ? { outcome: 'right' }
          : { outcome: 'tryLater', reason: 'oldSystemUnreachable' };
      } catch (error) {
        return answerOfError(error);
      }
    },
    reachable: () => probe.answers(sdkEndpoint),
    close: async () => {
      client.destroy();
      await probe.close();
    },
  };
}

/** The SDK's error by its name and HTTP status only: its message may quote what was sent. */
function answerOfError(error: unknown): PasswordVerdict {
  const name = error instanceof Error ? error.name : '';
  const status = error instanceof Error && '$metadata' in error ? statusOf(error.$metadata) : undefined;
  if (WRONG.has(name)) return { outcome: 'wrong' };
  if (BUSY.has(name) || status === 429) return { outcome: 'tryLater', reason: 'oldSystemBusy' };
  // No answer (refused, timed out, aborted) or a 5xx: the pool is not there now.
  if (status === undefined || status >= 500) return { outcome: 'tryLater', reason: 'oldSystemUnreachable' };
  // ResourceNotFound (no such client), InvalidParameter (USER_PASSWORD_AUTH not allowed, a secret hash missing): the service's settings.
  return { outcome: 'tryLater', reason: 'oldSystemRefused' };
}

function statusOf(metadata: unknown): number | undefined {
  if (typeof metadata !== 'object' || metadata === null || !('httpStatusCode' in metadata)) return undefined;
  return typeof metadata.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
}
