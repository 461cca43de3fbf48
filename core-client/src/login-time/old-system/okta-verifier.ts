import { z } from 'zod';
import type { Secret } from '../../secret.js';
import { isReply, OldSystemHttp } from './old-system-http.js';
import type { OldSystemSettings } from './old-system-settings.js';
import type { PasswordVerdict, OldSystemVerifier } from './old-system-verifier.js';

type OktaSettings = Extract<OldSystemSettings, { kind: 'okta' }>;

/**
 * The transaction states Okta answers only once the password was validated (its Authentication API, "Transaction
 * state"): done, a second factor to give or enrol, or a password to change.
 */
const RIGHT = new Set(['SUCCESS', 'PASSWORD_WARN', 'PASSWORD_EXPIRED', 'MFA_REQUIRED', 'MFA_ENROLL', 'MFA_ENROLL_ACTIVATE', 'MFA_CHALLENGE']);
/** Okta's "Authentication failed": a wrong password, an unknown user and a shut one alike. */
const AUTHENTICATION_FAILED = 'E0000004';

const TransactionSchema = z.object({ status: z.string() });
const OktaErrorSchema = z.object({ errorCode: z.string() });

/**
 * An Okta org asked through its Authentication API's primary authentication (`POST /api/v1/authn` with the username
 * and password): a transaction past the password is a right password, and `LOCKED_OUT` or a 401 "Authentication
 * failed" a wrong one. The transaction's state token is never kept, and no factor is answered: the session Okta would
 * open is left to expire. An org on Okta Identity Engine whose apps use the OpenID password grant instead is asked with
 * the `openid` kind (docs/login-time.md).
 */
export function oktaVerifier(settings: OktaSettings, apiToken: Secret | undefined): OldSystemVerifier {
  const http = new OldSystemHttp(settings.timeoutMs);
  const origin = new URL(settings.orgUrl).origin;
  const url = new URL('/api/v1/authn', origin);
  return {
    kind: 'okta',
    location: url.href,
    async check({ email, password }): Promise<PasswordVerdict> {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (apiToken !== undefined) headers['authorization'] = `SSWS ${apiToken.reveal()}`;
      // No warning before expiry and no optional enrolment: the answer is only whether the password is right.
      const body = JSON.stringify({
        username: email,
        password: password.reveal(),
        options: { warnBeforePasswordExpired: false, multiOptionalFactorEnroll: false },
      });
      const reply = await http.post(url, headers, body);
      if (!isReply(reply)) return reply;
      if (reply.status === 200) {
        const transaction = TransactionSchema.safeParse(reply.json);
        if (!transaction.success) return { outcome: 'tryLater', reason: 'oldSystemUnreachable' };
        if (RIGHT.has(transaction.data.status)) return { outcome: 'right' };
        if (transaction.data.status === 'LOCKED_OUT') return { outcome: 'wrong' };
        // Another state (UNAUTHENTICATED, RECOVERY…) is the org's policy asking something else first: its settings.
        return { outcome: 'tryLater', reason: 'oldSystemRefused' };
      }
      const error = OktaErrorSchema.safeParse(reply.json);
      if (!error.success) return { outcome: 'tryLater', reason: 'oldSystemUnreachable' };
      if (reply.status === 401 && error.data.errorCode === AUTHENTICATION_FAILED) return { outcome: 'wrong' };
      // An API token refused (E0000011), an app not allowed this API, a request the org will not take: the service's settings.
      return { outcome: 'tryLater', reason: 'oldSystemRefused' };
    },
    // The Authentication API without a body or token: any answer below 500 there is Okta's (it takes only a POST).
    reachable: () => http.answers(url),
    close: () => http.close(),
  };
}
