import type { OldSystemSettings, OldSystemSettingsProblem } from '../old-system/old-system-settings.js';
import type { OldTokenVerifier, TokenVerifierOptions } from './old-token-verifier.js';
import { tokenIssuerOf } from './token-issuer.js';

/**
 * The token check for the old system the `--verify-with` settings describe (Firebase: `projectId`; Cognito:
 * `userPoolId`; OpenID: `issuer`), or the settings problem that says what they lack. Nothing is fetched until the first
 * token (or `keysReady`); jose is loaded only now, so a process that checks no token never loads it.
 */
export async function openTokenVerifier(settings: OldSystemSettings, options: TokenVerifierOptions = {}): Promise<OldTokenVerifier | OldSystemSettingsProblem> {
  const issuer = tokenIssuerOf(settings);
  if (!('readUser' in issuer)) return issuer;
  const { tokenVerifierFor } = await import('./token-verification.js');
  return tokenVerifierFor(issuer, options.now ?? Date.now);
}
