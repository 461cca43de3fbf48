import type { CoreClient } from '../http/core-client.js';
import { assignRoles } from '../roles/user-roles.js';
import type { ParkedUser } from './store/waiting-user.js';
import { optional } from '../optional.js';

export type ArrivalClient = Pick<CoreClient, 'mapUserId' | 'createEmailVerificationToken' | 'verifyEmail' | 'updateUserMetadata' | 'addUserRole'>;

/** How the identity steps of an arriving user ended: its id in every later answer, or why it could not get its old id. */
export type ArrivalEnd = { ok: true; userId: string } | { ok: false; reason: 'idMappingConflict' | 'idMappingUnknownUser' };

/**
 * The identity steps a parked user gets once created at its first sign-in, as the push gives them to an imported user
 * (each decided by the push's settings when it parked the user): its old id, its verified email, its metadata, its
 * roles. Each step is one the core takes again without harm, so a sign-in that finishes what a crashed one began
 * sends them all again. Errors of the core are thrown to the caller.
 */
export async function runArrivalSteps(client: ArrivalClient, coreUserId: string, user: ParkedUser): Promise<ArrivalEnd> {
  let userId = coreUserId;
  if (user.mapSourceId && user.sourceId !== undefined) {
    if (userId !== user.sourceId) {
      const mapped = await client.mapUserId({
        superTokensUserId: userId,
        externalUserId: user.sourceId,
        ...optional('externalUserIdInfo', user.mappingInfo),
      });
      if (mapped.outcome === 'conflict') return { ok: false, reason: 'idMappingConflict' };
      if (mapped.outcome === 'unknownUser') return { ok: false, reason: 'idMappingUnknownUser' };
    }
    userId = user.sourceId;
  }
  if (user.emailVerified) {
    const token = await client.createEmailVerificationToken({ userId, email: user.email });
    if (token.outcome === 'token') await client.verifyEmail(token.token);
  }
  if (user.metadata !== undefined) await client.updateUserMetadata({ userId, metadataUpdate: user.metadata });
  // A role the core no longer has is not given: the push created every role it names before parking.
  if (user.roles !== undefined) await assignRoles(client, userId, user.roles);
  return { ok: true, userId };
}
