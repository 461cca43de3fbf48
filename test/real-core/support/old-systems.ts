import { auth0UserId, SUITE_SCRYPT, writeAuth0Export, writeFirebaseExport, type ExportArguments, type OldUser } from './exports.js';

/** An old system the suite migrates from: how its export is written and read, and what its users become on a core. */
export interface OldSystem {
  name: string;
  /** The scrypt variant's signer key the core needs for this system's hashes, if any. */
  signerKey?: string;
  writeExport(dir: string, name: string, users: readonly OldUser[]): Promise<ExportArguments>;
  /** The id the core names a migrated user by: the old system's id as it exported it. */
  idInCore(user: OldUser): string;
  /** What the user's metadata holds at least, from its profile. */
  metadataOf(user: OldUser): Record<string, unknown>;
}

export const firebase: OldSystem = {
  name: 'Firebase (scrypt variant)',
  signerKey: SUITE_SCRYPT.signerKey,
  writeExport: writeFirebaseExport,
  idInCore: (user) => user.oldId,
  metadataOf: (user) => ({ displayName: user.name, migratedFrom: { system: 'firebase', sourceId: user.oldId } }),
};

export const auth0: OldSystem = {
  name: 'Auth0 (bcrypt)',
  writeExport: writeAuth0Export,
  idInCore: auth0UserId,
  metadataOf: (user) => ({ displayName: user.name, userMetadata: { theme: 'dark' }, migratedFrom: { system: 'auth0', sourceId: auth0UserId(user) } }),
};

export const OLD_SYSTEMS: readonly OldSystem[] = [firebase, auth0];
