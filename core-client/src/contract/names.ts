/**
 * The contract's names, in one place: every path, header and constant that the client, the core double
 * and the push engine share. See spec/user-import-interface.md (sections 2 and 4) and core-behaviour.md.
 */

export const CorePaths = {
  passwordHashImport: '/recipe/user/passwordhash/import',
  signInUp: '/recipe/signinup',
  signIn: '/recipe/signin',
  /** Creates a password user from a plain password (the core hashes it): the login-time migration's creation. */
  signUp: '/recipe/signup',
  hello: '/hello',
  apiVersion: '/apiversion',
  // Beyond the contract (core-behaviour.md, "Keeping a migrated user's identity" and "Finding and removing users"):
  userIdMap: '/recipe/userid/map',
  emailVerifyToken: '/recipe/user/email/verify/token',
  emailVerify: '/recipe/user/email/verify',
  userMetadata: '/recipe/user/metadata',
  /** `GET ?email=` finds a password user: the push's `--existing skip` lookup and the journal's core check alike. */
  userByEmail: '/recipe/user',
  removeUser: '/user/remove',
  /** `GET`: how many users the tenant has (the journal's check that the users it created are still there). */
  userCount: '/users/count',
  // Changing a user the migration created (core-behaviour.md, "Changing a user the migration created"):
  /** `PUT {recipeUserId, email}`: a password user's new email. The same path as `userByEmail`, another method. */
  userEmailChange: '/recipe/user',
  emailVerifyRemove: '/recipe/user/email/verify/remove',
  // User roles (core-behaviour.md, "User roles"):
  /** `PUT {role, permissions}`: creates a role, or adds permissions to an existing one. */
  role: '/recipe/role',
  rolePermissions: '/recipe/role/permissions',
  roles: '/recipe/roles',
  /** `GET ?role=`: the users of the tenant that have the role (a rollback removes a role it created only when none has). */
  roleUsers: '/recipe/role/users',
  /** `PUT {userId, role}`: gives a user a role. */
  userRole: '/recipe/user/role',
  userRoles: '/recipe/user/roles',
  userRoleRemove: '/recipe/user/role/remove',
  roleRemove: '/recipe/role/remove',
  // Passwordless users (core-behaviour.md, "Passwordless users: phone numbers and email links"):
  /** `POST {phoneNumber} | {email}`: makes a one-time code for that login (nothing is sent to it). */
  passwordlessCode: '/recipe/signinup/code',
  /** `POST {preAuthSessionId, linkCode}`: uses the code up; creates the login's passwordless user, or finds it. */
  passwordlessConsume: '/recipe/signinup/code/consume',
  /** `POST {phoneNumber} | {email}`: removes every code of that login (what a run killed between the two calls left). */
  passwordlessCodesRemove: '/recipe/signinup/codes/remove',
  /** `PUT {recipeUserId, phoneNumber | email}` with the header `rid: passwordless`: a passwordless user's new login. */
  passwordlessUserChange: '/recipe/user',
  /** `GET ?phoneNumber= | ?email= &doUnionOfAccountInfo=true`: users of every kind with that login. */
  usersByAccountInfo: '/users/by-accountinfo',
} as const;
export type CorePath = (typeof CorePaths)[keyof typeof CorePaths];

export const CoreHeaders = {
  apiKey: 'api-key',
  contentType: 'content-type',
  authorization: 'authorization',
  retryAfter: 'retry-after',
  /** Which recipe a shared path is for: `PUT /recipe/user` changes a passwordless user only with `rid: passwordless`. */
  recipeId: 'rid',
} as const;

/** The `rid` header's value for a passwordless user's calls. */
export const PASSWORDLESS_RECIPE_ID = 'passwordless';

/** The request content type the contract prescribes (section 4). */
export const REQUEST_CONTENT_TYPE = 'application/json; charset=utf-8';
/** What a real core sends with a success (core-behaviour.md, Transport). */
export const SUCCESS_CONTENT_TYPE = 'application/json;charset=UTF-8';
/** What a real core sends with every error: plain text, labelled as HTML. */
export const ERROR_CONTENT_TYPE = 'text/html;charset=UTF-8';

/** The only `hashingAlgorithm` value of the contract; BCrypt and Argon2 hashes omit the field. */
export const VENDOR_SCRYPT = 'vendor_scrypt';
/**
 * The name a core of this kind in the field takes for the scrypt variant instead: it answers `Unsupported password
 * hashing algorithm` to the contract's (../shared/spec/core-transcripts/scrypt-names.json). The pre-flight learns which
 * of the two a core takes; the plan and the journal keep the contract's.
 */
export const FIELD_SCRYPT = 'firebase_scrypt';
/** The names a core may take for the scrypt variant, the contract's first (the order the pre-flight tries them in). */
export const SCRYPT_ALGORITHM_NAMES = [VENDOR_SCRYPT, FIELD_SCRYPT] as const;
export type ScryptAlgorithmName = (typeof SCRYPT_ALGORITHM_NAMES)[number];
/** Other names an export gives the scrypt variant: the one a real core uses for it. */
export const VENDOR_SCRYPT_ALIASES: readonly string[] = [FIELD_SCRYPT];
/** The prefix of an scrypt-variant hash string. */
export const VENDOR_SCRYPT_HASH_PREFIX = '$f_scrypt$';

/** The core's environment variable (and config key, lower-cased) for the scrypt variant's signer key. */
export const SIGNER_KEY_ENV = 'VENDOR_PASSWORD_HASHING_SIGNER_KEY';
export const SIGNER_KEY_CONFIG_NAME = 'vendor_password_hashing_signer_key';
/** The same setting's names on a core in the field (config.yaml, and its container's environment). */
export const FIELD_SIGNER_KEY_ENV = 'FIREBASE_PASSWORD_HASHING_SIGNER_KEY';
export const FIELD_SIGNER_KEY_CONFIG_NAME = 'firebase_password_hashing_signer_key';

/** The tenant and app every core has; requests for them need no path prefix. */
export const DEFAULT_TENANT_ID = 'public';
export const DEFAULT_APP_ID = 'public';
/** An app's path segment is `appid-<appId>`. */
export const APP_PATH_SEGMENT_PREFIX = 'appid-';

export const DEFAULT_CORE_PORT = 3567;

/** The body a core answers to `GET /hello`. */
export const HELLO_BODY = 'Hello';

export const CoreStatus = {
  ok: 'OK',
  wrongCredentials: 'WRONG_CREDENTIALS_ERROR',
  emailChangeNotAllowed: 'EMAIL_CHANGE_NOT_ALLOWED_ERROR',
  mappingAlreadyExists: 'USER_ID_MAPPING_ALREADY_EXISTS_ERROR',
  unknownSuperTokensUserId: 'UNKNOWN_SUPERTOKENS_USER_ID_ERROR',
  unknownMapping: 'UNKNOWN_MAPPING_ERROR',
  emailAlreadyVerified: 'EMAIL_ALREADY_VERIFIED_ERROR',
  invalidVerificationToken: 'EMAIL_VERIFICATION_INVALID_TOKEN_ERROR',
  unknownEmail: 'UNKNOWN_EMAIL_ERROR',
  emailAlreadyExists: 'EMAIL_ALREADY_EXISTS_ERROR',
  unknownUserId: 'UNKNOWN_USER_ID_ERROR',
  unknownRole: 'UNKNOWN_ROLE_ERROR',
  /** A code that does not exist (never made, used, removed or expired). */
  restartFlow: 'RESTART_FLOW_ERROR',
  /** A passwordless user's new phone number already belongs to another user (seen on a real core; not in the spec's list). */
  phoneNumberAlreadyExists: 'PHONE_NUMBER_ALREADY_EXISTS_ERROR',
} as const;

const emptyFieldText = (field: string): string => `Field name '${field}' cannot be an empty String`;

/** Texts of the core's error bodies that a client recognises (core-behaviour.md). */
export const CoreErrorTexts = {
  invalidJson: 'Invalid Json Input',
  invalidApiKey: 'Invalid API key',
  tenantNotFoundPrefix: 'AppId or tenantId not found',
  notFound: 'Not found',
  methodNotSupported: 'Method not supported',
  unsupportedHashingAlgorithm: 'Unsupported password hashing algorithm',
  emptyHashingAlgorithm: 'Hashing Algorithm cannot be an empty string',
  emptyPasswordHash: 'Password hash cannot be an empty string',
  invalidPasswordHash: 'Password hash is in invalid format',
  /** How every malformed-hash refusal starts (`… invalid format`, `… invalid BCrypt format`, `… invalid Firebase SCrypt format`). */
  invalidHashPrefix: 'Password hash is in invalid',
  invalidScryptHash: 'Password hash is in invalid SCrypt format',
  /** What a core in the field says of a malformed hash under its own name of the scrypt variant. */
  invalidFieldScryptHash: 'Password hash is in invalid Firebase SCrypt format',
  fieldInvalid: (field: string) => `Field name '${field}' is invalid in JSON input`,
  /** A required string that is empty once trimmed (`role`, `permissions`, `externalUserId`). */
  emptyField: emptyFieldText,
  emptyExternalUserId: emptyFieldText('externalUserId'),
  emptyRole: emptyFieldText('role'),
  externalIdIsCoreId: 'Cannot create a userId mapping where the externalId is also a SuperTokens userID',
  signerKeyMissing: `java.lang.IllegalStateException: '${SIGNER_KEY_CONFIG_NAME}' cannot be null`,
  /** A code request with neither or both logins. */
  passwordlessCodeLogin: 'Please provide exactly one of email, phoneNumber or deviceId',
  /** A removal of codes with neither or both logins (seen on a real core). */
  passwordlessCodesRemoveLogin: 'Please provide exactly one of email or phoneNumber',
  /** `PUT /recipe/user` without `rid: passwordless` and without an email or password: the password user's update. */
  userChangeNeedsEmailOrPassword: 'You have to provide either email or password.',
  /** `GET /users/by-accountinfo` without its union flag (seen on a real core). */
  accountInfoUnionMissing: "Field name 'doUnionOfAccountInfo' is missing in GET request",
} as const;

/** Matches the 500 a core gives for a `$f_scrypt$` hash when it has no signer key (any vendor prefix). */
export const SIGNER_KEY_MISSING_PATTERN = /password_hashing_signer_key'?\s+cannot be null/i;

/**
 * Matches the 500 of a store that could not take a write because another one held its lock (core-behaviour.md,
 * "Under concurrency"): `...SQLITE_LOCKED_SHAREDCACHE... database table is locked` from the in-memory storage, and the
 * lock and serialisation failures a SQL database reports, for which sending the write again is the documented remedy.
 * Such an answer says the core is busy, not that the record is wrong.
 */
export const STORE_CONTENTION_PATTERN =
  /database (table )?is locked|SQLITE_(BUSY|LOCKED)|deadlock detected|could not serialize access|lock wait timeout exceeded/i;

/** A core's refusal of a malformed scrypt-variant hash, under the name the import gave. */
export function invalidScryptHashText(name: ScryptAlgorithmName): string {
  return name === FIELD_SCRYPT ? CoreErrorTexts.invalidFieldScryptHash : CoreErrorTexts.invalidScryptHash;
}
