import { parseTargetDescription } from '../http/target.js';

/**
 * Whether a journal written for `journalTarget` may be used with `clientTarget` (both as `CoreClient.describe()` says
 * them). Cores listed together share one database, so any of them reaches the same users: a run over some of the
 * journal's cores (a replica down), more of them (replicas added) or the same ones in another order goes on with the
 * journal. A run that shares no core with it, or another tenant or app, may reach another database and is refused;
 * the journal's check of a sample of its users at the core still guards an address that now leads elsewhere.
 */
export function journalFitsTarget(journalTarget: string, clientTarget: string): boolean {
  if (journalTarget === clientTarget) return true;
  const journal = parseTargetDescription(journalTarget);
  const client = parseTargetDescription(clientTarget);
  if (journal === undefined || client === undefined || journal.scope !== client.scope) return false;
  return journal.baseUrls.some((url) => client.baseUrls.includes(url));
}
