import { z } from 'zod';
import type { Secret } from '../../secret.js';
import { isReply, OldSystemHttp } from './old-system-http.js';
import type { OldSystemSettings } from './old-system-settings.js';
import type { PasswordVerdict, OldSystemVerifier } from './old-system-verifier.js';

type FirebaseSettings = Extract<OldSystemSettings, { kind: 'firebase' }>;

/**
 * The messages of `accounts:signInWithPassword` that say the password does not open the account: wrong
 * (`INVALID_PASSWORD`, or `INVALID_LOGIN_CREDENTIALS` where email enumeration protection is on), no such account,
 * or disabled. All answer alike. A message may carry a detail after " : ".
 */
const WRONG = new Set(['INVALID_PASSWORD', 'INVALID_LOGIN_CREDENTIALS', 'EMAIL_NOT_FOUND', 'USER_DISABLED', 'INVALID_EMAIL', 'MISSING_PASSWORD']);
const BUSY = new Set(['TOO_MANY_ATTEMPTS_TRY_LATER', 'QUOTA_EXCEEDED']);

const FirebaseErrorSchema = z.object({ error: z.object({ message: z.string() }) });

/**
 * Firebase Authentication (Identity Toolkit) asked with the project's Web API key: a 200 is a right password (an
 * account with a second factor answers 200 with `mfaPendingCredential`: the password was right).
 */
export function firebaseVerifier(settings: FirebaseSettings, apiKey: Secret): OldSystemVerifier {
  const http = new OldSystemHttp(settings.timeoutMs);
  const base = settings.endpoint.replace(/\/+$/, '');
  const location = `${base}/v1/accounts:signInWithPassword`;
  return {
    kind: 'firebase',
    location,
    async check({ email, password }): Promise<PasswordVerdict> {
      const url = new URL(location);
      url.searchParams.set('key', apiKey.reveal());
      const body = JSON.stringify({ email, password: password.reveal(), returnSecureToken: false });
      const reply = await http.post(url, { 'content-type': 'application/json' }, body);
      if (!isReply(reply)) return reply;
      if (reply.status === 200) return { outcome: 'right' };
      const error = FirebaseErrorSchema.safeParse(reply.json);
      const code = error.success ? (error.data.error.message.split(' ')[0] ?? '') : '';
      if (reply.status === 400 && WRONG.has(code)) return { outcome: 'wrong' };
      if (BUSY.has(code))
        return { outcome: 'tryLater', reason: 'oldSystemBusy', ...(reply.retryAfterSeconds !== undefined && { retryAfterSeconds: reply.retryAfterSeconds }) };
      // An API key refused, a project without password sign-in, an answer that is not Firebase's: the service's fault.
      return { outcome: 'tryLater', reason: error.success ? 'oldSystemRefused' : 'oldSystemUnreachable' };
    },
    // The sign-in URL without the key: Identity Toolkit (and the emulator) answer a GET there 404 or 405.
    reachable: () => http.answers(new URL(location)),
    close: () => http.close(),
  };
}
