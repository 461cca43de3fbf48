import { z } from 'zod';
import type { Secret } from '../../secret.js';
import { isReply, OldSystemHttp } from './old-system-http.js';
import type { OldSystemSettings } from './old-system-settings.js';
import type { PasswordVerdict, OldSystemVerifier } from './old-system-verifier.js';

type OpenIdSettings = Extract<OldSystemSettings, { kind: 'openid' }>;

const OAuthErrorSchema = z.object({ error: z.string() });
const AUTH0_PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

/**
 * An OpenID provider's token endpoint, asked with the resource-owner password grant (RFC 6749, 4.3): a token is a
 * right password, `invalid_grant` a wrong one (Keycloak, Okta and Auth0 answer it for an unknown or disabled account
 * too). Auth0's `mfa_required` comes after the password was checked: right. A refused client is the service's fault.
 */
export function openIdVerifier(settings: OpenIdSettings, clientSecret: Secret | undefined): OldSystemVerifier {
  const http = new OldSystemHttp(settings.timeoutMs);
  const url = new URL(settings.tokenEndpoint);
  return {
    kind: 'openid',
    location: `${url.origin}${url.pathname}`,
    async check({ email, password }): Promise<PasswordVerdict> {
      const form = new URLSearchParams({
        grant_type: settings.realm === undefined ? 'password' : AUTH0_PASSWORD_REALM,
        username: email,
        password: password.reveal(),
        client_id: settings.clientId,
        scope: settings.scope,
      });
      if (settings.realm !== undefined) form.set('realm', settings.realm);
      if (settings.audience !== undefined) form.set('audience', settings.audience);
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
      if (clientSecret !== undefined && settings.clientAuthentication === 'post') form.set('client_secret', clientSecret.reveal());
      if (clientSecret !== undefined && settings.clientAuthentication === 'basic') {
        // RFC 6749, 2.3.1: each part form-encoded before the Basic encoding.
        const pair = `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(clientSecret.reveal())}`;
        headers['authorization'] = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
      }
      const reply = await http.post(url, headers, form.toString());
      if (!isReply(reply)) return reply;
      if (reply.status === 200) return { outcome: 'right' };
      const error = OAuthErrorSchema.safeParse(reply.json);
      if (!error.success) return { outcome: 'tryLater', reason: 'oldSystemUnreachable' };
      if (error.data.error === 'invalid_grant') return { outcome: 'wrong' };
      if (error.data.error === 'mfa_required') return { outcome: 'right' };
      if (error.data.error === 'too_many_attempts' || error.data.error === 'slow_down') {
        return { outcome: 'tryLater', reason: 'oldSystemBusy', ...(reply.retryAfterSeconds !== undefined && { retryAfterSeconds: reply.retryAfterSeconds }) };
      }
      return { outcome: 'tryLater', reason: 'oldSystemRefused' };
    },
    // The token endpoint without client or grant: providers answer a GET there 405, 404 or 400.
    reachable: () => http.answers(new URL(`${url.origin}${url.pathname}`)),
    close: () => http.close(),
  };
}
