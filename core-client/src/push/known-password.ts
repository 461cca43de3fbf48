import { legacyHashFamilyLabel } from '../hashes/legacy/registry.js';
import { verifyLegacyPassword } from '../hashes/legacy/verify-legacy.js';
import { verifyPassword } from '../hashes/verify-password.js';
import { normaliseEmail } from '../plan/email.js';
import { planSource, type PlanOptions } from '../plan/plan-source.js';
import type { Secret } from '../secret.js';
import { optional } from '../optional.js';

/** Whether a known account's password matches the hash the plan would import for it, in one sentence. */
export interface KnownPasswordCheck {
  match: boolean;
  sentence: string;
}

/**
 * Finds the account among the plan's password imports and verifies the password against the hash exactly as it
 * would be imported: a wrong signer key or rounds shows up here, before any user is sent. The signer key comes
 * with the plan's hash config. A user parked for a login-time migration is checked against its legacy hash by the
 * verifier `hash verify` and the login-time service use.
 */
export async function checkKnownPassword(
  sourcePath: string,
  options: PlanOptions,
  email: string,
  password: Secret,
  signal?: AbortSignal,
): Promise<KnownPasswordCheck> {
  const wanted = normaliseEmail(email);
  if (!wanted.ok) return { match: false, sentence: wanted.reason };
  const signerKey = options.hashConfig?.signerKey;
  for await (const record of planSource(sourcePath, options)) {
    signal?.throwIfAborted();
    for (const item of record.items) {
      if (item.email !== wanted.email) continue;
      if (item.kind === 'rejection' && item.operation === 'passwordImport')
        return { match: false, sentence: `${wanted.email} is not imported: ${item.reason}` };
      if (item.kind === 'loginTimeWait' && 'oldSystem' in item) {
        // No hash here to check against: the old system says, at the user's first sign-in.
        return { match: false, sentence: `cannot check ${wanted.email} here: parked for the old system (${item.oldSystem}) to check at its first sign-in` };
      }
      if (item.kind === 'loginTimeWait') {
        const checked = await verifyLegacyPassword(password, item.legacyHash, optional('signal', signal));
        const family = `${legacyHashFamilyLabel(item.family)}: parked, checked by the login-time service at its first sign-in`;
        if (checked.outcome === 'unusable') return { match: false, sentence: `cannot check ${wanted.email} (${family}): ${checked.reason}` };
        const match = checked.outcome === 'match';
        return { match, sentence: `the password ${match ? 'matches' : 'does NOT match'} ${wanted.email} (${family})` };
      }
      if (item.kind !== 'passwordImport') continue;
      const verdict = await verifyPassword(password, item.body.passwordHash, { signerKey, signal });
      if (!verdict.ok) return { match: false, sentence: `cannot check ${wanted.email}: ${verdict.reason}` };
      const warnings = verdict.warnings.length > 0 ? ` (${verdict.warnings.join('; ')})` : '';
      if (verdict.match) return { match: true, sentence: `the password matches ${wanted.email} (${item.family})${warnings}` };
      const hint = item.family === 'vendor_scrypt' ? ': check the signer key, rounds, mem_cost and salt separator' : '';
      return { match: false, sentence: `the password does NOT match ${wanted.email} (${item.family})${hint}${warnings}` };
    }
  }
  return { match: false, sentence: `no password user ${wanted.email} in this file` };
}

/**
 * Emails of password users in the file (those parked for a login-time migration too) that start with `typed`, for
 * completion (reads until `limit` are found).
 */
export async function findPasswordEmails(sourcePath: string, options: PlanOptions, typed: string, limit: number): Promise<string[]> {
  const prefix = typed.trim().toLowerCase();
  const found: string[] = [];
  for await (const record of planSource(sourcePath, options)) {
    for (const item of record.items) {
      const withPassword = item.kind === 'passwordImport' || item.kind === 'loginTimeWait';
      if (withPassword && item.email.startsWith(prefix) && !found.includes(item.email)) found.push(item.email);
    }
    if (found.length >= limit) break;
  }
  return found;
}
