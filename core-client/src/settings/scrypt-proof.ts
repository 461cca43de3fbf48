import { settingName, type SettingFace } from './setting-flags.js';

/** The one line of a known-accounts file: an account whose password the operator knows (a test account). */
export const KNOWN_ACCOUNT_LINE = 'tester@example.com the-password-you-know';

/**
 * Said before a run sends scrypt-variant users with nothing proving their hash parameters: the core imports a
 * `$f_scrypt$` hash built with a wrong mem_cost, rounds or salt separator without a word, and none of those users can
 * sign in afterwards. `users` is the push plan's count of them.
 */
export function unprovenScryptWarning(users: number, face: SettingFace): string {
  const who = `${users} scrypt-variant user(s) (vendor_scrypt, $f_scrypt$)`;
  const setting = settingName('verifyCredentials', face);
  const how =
    face === 'flags'
      ? `add ${setting} known.txt, where known.txt holds the line\n  ${KNOWN_ACCOUNT_LINE}`
      : `set "${setting}" to a file holding the line\n  ${KNOWN_ACCOUNT_LINE}`;
  return (
    `WARNING: ${who} go to the core with nothing proving their hash parameters: the core takes a hash built with a wrong mem_cost, ` +
    'rounds or salt separator without a word, and then every such user is locked out (none can sign in). ' +
    `Prove them with one account whose password you know (checked locally before anything is sent, signed in after): ${how}`
  );
}
