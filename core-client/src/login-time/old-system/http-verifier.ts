import type { Secret } from '../../secret.js';
import { isReply, OldSystemHttp } from './old-system-http.js';
import type { OldSystemSettings } from './old-system-settings.js';
import type { PasswordVerdict, OldSystemVerifier } from './old-system-verifier.js';

type HttpSettings = Extract<OldSystemSettings, { kind: 'http' }>;

/**
 * The old backend's own endpoint: POST the email and password as JSON; any 2xx is a right password, 401 and 403 a
 * wrong one (an unknown or disabled account must answer the same). 429 and 5xx say nothing of the password; any other
 * answer is taken for the service's mistake (a wrong URL or token).
 */
export function httpVerifier(settings: HttpSettings, bearerToken: Secret | undefined): OldSystemVerifier {
  const http = new OldSystemHttp(settings.timeoutMs);
  const url = new URL(settings.url);
  return {
    kind: 'http',
    location: `${url.origin}${url.pathname}`,
    async check({ email, password }): Promise<PasswordVerdict> {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (bearerToken !== undefined) headers['authorization'] = `Bearer ${bearerToken.reveal()}`;
      const body = JSON.stringify({ [settings.emailField]: email, [settings.passwordField]: password.reveal() });
      const reply = await http.post(url, headers, body);
      if (!isReply(reply)) return reply;
      if (reply.status >= 200 && reply.status < 300) return { outcome: 'right' };
      if (reply.status === 401 || reply.status === 403) return { outcome: 'wrong' };
      return { outcome: 'tryLater', reason: 'oldSystemRefused' };
    },
    // The endpoint without the token or its query (which may hold one): a POST-only route answers a GET 404 or 405.
    reachable: () => http.answers(new URL(`${url.origin}${url.pathname}`)),
    close: () => http.close(),
  };
}
