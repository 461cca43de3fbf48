import { normaliseEmail } from 'core-client/plan/email';
import { planSource } from 'core-client/plan/plan-source';
import { verifyPassword } from 'core-client/hashes/verify-password';
import type { Secret } from 'core-client/secret';
import type { CheckResult } from '../screens/walk-state.js';
import type { PlanRequest } from './plan-request.js';

/**
 * Finds the typed account among the plan's password imports and verifies the typed password against the hash
 * exactly as it would be imported, with core-client's verifier: a wrong signer key or rounds shows up here, before
 * any user is sent. An abort of `signal` (the app quits) stops the reading and the check at once: the promise
 * rejects with the signal's reason.
 */
export async function checkKnownPassword(
  request: PlanRequest,
  email: string,
  password: Secret,
  signerKey: Secret | undefined,
  signal?: AbortSignal,
): Promise<CheckResult> {
  const wanted = normaliseEmail(email);
  if (!wanted.ok) return { match: false, sentence: wanted.reason };
  for await (const record of planSource(request.path, request.options)) {
    signal?.throwIfAborted();
    for (const item of record.items) {
      if (item.email !== wanted.email) continue;
      if (item.kind === 'rejection' && item.operation === 'passwordImport') {
        return { match: false, sentence: `${wanted.email} is not imported: ${item.reason}` };
      }
      if (item.kind !== 'passwordImport') continue;
      const verdict = await verifyPassword(password, item.body.passwordHash, {
        ...(signerKey === undefined || signerKey.isEmpty ? {} : { signerKey }),
        signal,
      });
      return verdictSentence(wanted.email, item.family, verdict);
    }
  }
  return { match: false, sentence: `no password user ${wanted.email} in this file` };
}

type Verdict = Awaited<ReturnType<typeof verifyPassword>>;

function verdictSentence(email: string, family: string, verdict: Verdict): CheckResult {
  if (!('match' in verdict)) return { match: false, sentence: `cannot check ${email}: ${verdict.reason}` };
  const warnings = verdict.warnings.length > 0 ? ` (${verdict.warnings.join('; ')})` : '';
  if (verdict.match) return { match: true, sentence: `the password matches ${email} (${family})${warnings}` };
  const hint = family === 'vendor_scrypt' ? ': check the signer key, rounds, mem_cost and salt separator' : '';
  return { match: false, sentence: `the password does NOT match ${email} (${family})${hint}${warnings}` };
}

/** Emails of password users in the file that start with what was typed, for completion. */
export async function findPasswordEmails(request: PlanRequest, typed: string, limit: number): Promise<string[]> {
  const prefix = typed.trim().toLowerCase();
  const found: string[] = [];
  for await (const record of planSource(request.path, request.options)) {
    for (const item of record.items) {
      if (item.kind === 'passwordImport' && item.email.startsWith(prefix) && !found.includes(item.email)) found.push(item.email);
    }
    if (found.length >= limit) break;
  }
  return found;
}
