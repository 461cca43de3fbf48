import type { ParkedUser } from '../login-time/store/waiting-user.js';
import { mappingInfo, metadataOf } from '../plan/metadata.js';
import { loginCheckOf, type LoginTimeWait } from '../plan/operation.js';
import { optional } from '../optional.js';
import type { IdentityOptions } from '../identity/identity-options.js';

/**
 * What a parked user gets when it arrives at its first sign-in: each identity step the push would have given it now,
 * decided by the same settings (`--no-keep-ids`, `--no-verify-emails`, `--no-metadata`, the roles), so the login-time
 * migration carries out no choice of its own.
 */
export function parkedUserOf(item: LoginTimeWait, options: IdentityOptions): ParkedUser {
  const identity = item.identity;
  const sourceId = identity?.sourceId;
  const mapSourceId = options.keepIds && identity?.carriesSourceId === true && sourceId !== undefined;
  const roles = options.roles ? identity?.roles?.filter((role) => options.refusedRoles[role] === undefined) : undefined;
  return {
    email: item.email,
    ...optional('sourceId', sourceId),
    mapSourceId,
    ...(mapSourceId && identity !== undefined ? { mappingInfo: mappingInfo(identity) } : {}),
    emailVerified: options.verifyEmails && identity?.emailVerified === true,
    ...optional('metadata', options.metadata && identity !== undefined ? metadataOf(identity) : undefined),
    ...optional('roles', roles),
    ...loginCheckOf(item),
  };
}
