import { metadataOf } from './metadata.js';
import { passwordlessLogin, type ImportOperation } from './operation.js';

/**
 * What a sync compares of each migrated account, group by group, so it knows what changed and not just that
 * something did. The journal keeps a keyed digest of each group's text, never the text.
 */
export const fieldGroups = ['credentials', 'email', 'verification', 'profile', 'disabled', 'roles'] as const;
export type FieldGroup = (typeof fieldGroups)[number];
export type FieldGroupTexts = Record<FieldGroup, string>;

/**
 * Which account of an old user an operation is: its password login, or one third-party account. With the old id
 * it names one core user across exports, whatever line the record moved to.
 */
export function accountRoleOf(operation: ImportOperation): string {
  switch (operation.kind) {
    case 'passwordImport':
      return 'pw';
    case 'thirdPartySignInUp':
      return `tp:${operation.body.thirdPartyId}:${operation.body.thirdPartyUserId}`;
    case 'passwordlessSignInUp':
      // One passwordless login per old user: a changed number or email is a change of this account, not a new one.
      return 'pl';
  }
}

/** The texts the digests are taken of: what the migration sends for each group. */
export function fieldGroupTexts(operation: ImportOperation): FieldGroupTexts {
  const identity = operation.identity;
  const metadata = identity === undefined ? undefined : metadataOf({ ...identity, disabled: false });
  const common = {
    profile: metadata === undefined ? '' : JSON.stringify(metadata),
    disabled: identity?.disabled === true ? 'disabled' : '',
    roles: [...(identity?.roles ?? [])].sort().join('\n'),
  };
  if (operation.kind === 'passwordImport') {
    return {
      credentials: `${operation.body.passwordHash}\n${operation.body.hashingAlgorithm ?? ''}`,
      email: operation.body.email,
      verification: identity?.emailVerified === true ? 'verified' : '',
      ...common,
    };
  }
  if (operation.kind === 'passwordlessSignInUp') {
    const login = passwordlessLogin(operation);
    return {
      // The login is the credential: a code sent to it. The core marks it verified when the code is consumed.
      credentials: '',
      email: login.kind === 'phone' ? `phone:${login.phoneNumber}` : login.email,
      verification: 'verified',
      ...common,
    };
  }
  return {
    // The account itself is the credential, and its role names it.
    credentials: '',
    email: operation.body.email.id,
    verification: operation.body.email.isVerified ? 'verified' : '',
    ...common,
  };
}
