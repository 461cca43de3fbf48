import { Problem } from '../problem.js';

/** Export provider ids (Firebase, Auth0, Cognito, Supabase) → the short provider names the core's thirdPartyId expects. */
export const defaultProviderMap: Readonly<Record<string, string>> = {
  'google.com': 'google',
  'facebook.com': 'facebook',
  'github.com': 'github',
  'twitter.com': 'twitter',
  'apple.com': 'apple',
  'microsoft.com': 'microsoft',
  'linkedin.com': 'linkedin',
  'yahoo.com': 'yahoo',
  // Auth0 connection names
  'google-oauth2': 'google',
  facebook: 'facebook',
  github: 'github',
  twitter: 'twitter',
  apple: 'apple',
  windowslive: 'microsoft',
  linkedin: 'linkedin',
  yahoo: 'yahoo',
  // Cognito identity provider names, as a federated user's `identities` attribute gives them
  Google: 'google',
  Facebook: 'facebook',
  SignInWithApple: 'apple',
  // Supabase Auth's provider names where they are not the short name already
  azure: 'microsoft',
  linkedin_oidc: 'linkedin',
};

/** Provider ids that name the password or phone login of the old system itself, not a third-party account. */
const firstPartyProviderIds = new Set(['password', 'phone', 'email', 'auth0', 'firebase', 'anonymous']);

export const MAX_THIRD_PARTY_ID_LENGTH = 28;
export const MAX_THIRD_PARTY_USER_ID_LENGTH = 256;

/**
 * The short name for an export's provider id: mapped when the map knows it, and kept as it is when it already
 * is one of the map's short names (a file in the contract's own shape carries `google`, not `google.com`).
 */
export function shortProviderName(providerId: string, map: Readonly<Record<string, string>>): string | undefined {
  const id = providerId.trim();
  const mapped = map[id];
  if (mapped !== undefined) return mapped;
  return Object.values(map).includes(id) ? id : undefined;
}

export function isThirdPartyProvider(providerId: string): boolean {
  return !firstPartyProviderIds.has(providerId.trim().toLowerCase());
}

/** A `--provider-map` entry that cannot be used; the words say what to write instead. */
export class ProviderMapError extends Problem<'providerMap', 'providerMapInvalid'> {
  override readonly name = 'ProviderMapError';

  constructor(words: string) {
    super('providerMapInvalid', 'setting', 'providerMap', words);
  }
}

/**
 * Parses operator overrides `from=to` (flags or lines of a file); `to` must be a valid thirdPartyId.
 * Returns the default map with the overrides applied.
 */
export function buildProviderMap(overrides: readonly string[] = []): Record<string, string> | ProviderMapError {
  const map: Record<string, string> = { ...defaultProviderMap };
  for (const override of overrides) {
    const separator = override.indexOf('=');
    const from = override.slice(0, separator).trim();
    const to = override.slice(separator + 1).trim();
    if (separator < 1 || to.length === 0) {
      return new ProviderMapError(`provider mapping "${override}" must look like "export-provider-id=short-name", e.g. "gc.apple.com=gamecenter"`);
    }
    if (to.length > MAX_THIRD_PARTY_ID_LENGTH) {
      return new ProviderMapError(`provider name "${to}" is longer than the core's limit of ${MAX_THIRD_PARTY_ID_LENGTH} characters`);
    }
    map[from] = to;
  }
  return map;
}
