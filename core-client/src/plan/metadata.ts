import type { OperationIdentity } from './operation.js';
import { optional } from '../optional.js';

/**
 * The user metadata written for a migrated user, under the names the README documents ("What a migrated user
 * keeps"). Built from a whitelist of profile fields, so a hash, a salt or a secret can never get in.
 */
export function metadataOf(identity: OperationIdentity): Record<string, unknown> | undefined {
  const profile = identity.profile ?? {};
  const metadata: Record<string, unknown> = { ...profile };
  if (identity.system !== undefined || identity.sourceId !== undefined) {
    metadata['migratedFrom'] = {
      ...optional('system', identity.system),
      ...optional('sourceId', identity.sourceId),
      // A linked account that became its own core user: the application can link it to the user with the old id.
      ...(identity.carriesSourceId || identity.sourceId === undefined ? {} : { separateAccountOf: identity.sourceId }),
    };
  }
  if (identity.emailNotLogin !== undefined) metadata['email'] = identity.emailNotLogin;
  if (identity.disabled) metadata['disabled'] = true;
  return Object.keys(metadata).length === 0 ? undefined : metadata;
}

/** The free text stored beside a mapping, so the core's operators see where the old id came from. */
export function mappingInfo(identity: OperationIdentity): string {
  return `core-migrate: ${identity.system ?? 'export'} id`;
}
