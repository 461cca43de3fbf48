import { CoreErrorTexts, CoreStatus, HELLO_BODY, type ScryptAlgorithmName, invalidScryptHashText } from '../../core-client/src/contract/names.js';
import { type DoubleAnswer, fail, fieldInvalid, isJsonObject, jsonAnswer, requireBoolean, requireString, textAnswer } from './answers.js';
import { isArgon2Hash, isBcryptHash, parseVendorScryptHash, verifyPassword } from './passwords.js';
import type { Scope, UserStore } from './store.js';
import { userJson } from './store.js';

export interface HandlerContext {
  scope: Scope;
  body: Record<string, unknown>;
  /** The query string of a GET (`?email=`, `?userId=`). */
  query: URLSearchParams;
  store: UserStore;
  /** Refuses with the core's tenant error when the path names a tenant or app the core does not have. */
  requireTenant: () => void;
  signerKey: string | undefined;
  /** The one name this core imports the scrypt variant under. */
  scryptAlgorithmName: ScryptAlgorithmName;
  userShape: 'recent' | 'legacy';
}

/** What a real core 10.0.7 answered, in the order it gave them (it keeps none in particular). */
export const API_VERSIONS = [
  '2.14',
  '2.13',
  '2.12',
  '2.11',
  '2.10',
  '2.21',
  '2.20',
  '2.19',
  '2.18',
  '2.17',
  '3.0',
  '2.16',
  '3.1',
  '4.0',
  '2.15',
  '5.0',
  '5.1',
  '5.2',
  '2.7',
  '2.8',
  '2.9',
];

const normaliseEmail = (email: string): string => email.trim().toLowerCase();

function readHashingAlgorithm(body: Record<string, unknown>, known: ScryptAlgorithmName): ScryptAlgorithmName | undefined {
  const raw = body['hashingAlgorithm'];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') return fieldInvalid('hashingAlgorithm');
  const algorithm = raw.trim();
  if (algorithm === '') return fail(400, CoreErrorTexts.emptyHashingAlgorithm);
  // Stricter than a real core, which also knows `bcrypt` and `argon2`: the contract allows only the scrypt variant.
  if (algorithm.toLowerCase() !== known) return fail(400, CoreErrorTexts.unsupportedHashingAlgorithm);
  return known;
}

/** POST /recipe/user/passwordhash/import — checks only prefixes, exactly like the core. */
export function importPasswordHash(context: HandlerContext): DoubleAnswer {
  const { body } = context;
  const email = normaliseEmail(requireString(body, 'email'));
  const passwordHash = requireString(body, 'passwordHash').trim();
  // A real core refuses an empty hash before it reads the algorithm's name (scrypt-names.json).
  if (passwordHash === '') return fail(400, CoreErrorTexts.emptyPasswordHash);
  const hashingAlgorithm = readHashingAlgorithm(body, context.scryptAlgorithmName);
  // A real core finds the tenant here: an empty hash is refused in any tenant, a malformed one only in a known one.
  context.requireTenant();
  if (hashingAlgorithm !== undefined) {
    if (parseVendorScryptHash(passwordHash) === undefined) return fail(400, invalidScryptHashText(hashingAlgorithm));
    if (context.signerKey === undefined) return textAnswer(500, CoreErrorTexts.signerKeyMissing);
  } else if (!isBcryptHash(passwordHash) && !isArgon2Hash(passwordHash)) {
    return fail(400, CoreErrorTexts.invalidPasswordHash);
  }
  const { user, didUserAlreadyExist } = context.store.importPasswordHash(context.scope, email, passwordHash, hashingAlgorithm);
  return jsonAnswer({
    status: CoreStatus.ok,
    user: userJson(user, context.userShape, context.store.isVerified(user.id, user.email)),
    didUserAlreadyExist,
  });
}

/** POST /recipe/signinup — create for a new (thirdPartyId, thirdPartyUserId), else update email and flag. */
export function signInUp(context: HandlerContext): DoubleAnswer {
  const { body } = context;
  const thirdPartyId = requireString(body, 'thirdPartyId');
  const thirdPartyUserId = requireString(body, 'thirdPartyUserId');
  const email = body['email'];
  if (!isJsonObject(email)) return fieldInvalid('email');
  const emailId = normaliseEmail(requireString(email, 'id'));
  const isVerified = requireBoolean(email, 'isVerified');
  const { user, createdNewUser } = context.store.signInUp(context.scope, thirdPartyId, thirdPartyUserId, emailId, isVerified);
  return jsonAnswer({ status: CoreStatus.ok, createdNewUser, user: userJson(user, context.userShape), recipeUserId: user.externalId ?? user.id });
}

/** POST /recipe/signin — verifies with hash-wasm; every failure is the same WRONG_CREDENTIALS_ERROR. */
export async function signIn(context: HandlerContext): Promise<DoubleAnswer> {
  const email = normaliseEmail(requireString(context.body, 'email'));
  const password = requireString(context.body, 'password');
  const user = context.store.findEmailPasswordUser(context.scope, email);
  if (user === undefined || !(await verifyPassword(password, user.passwordHash, context.signerKey))) {
    return jsonAnswer({ status: CoreStatus.wrongCredentials });
  }
  const verified = context.store.isVerified(user.id, user.email);
  // A recent core also names the login method that signed in (the old id once mapped), as sign-in-up does.
  const recipeUserId = context.userShape === 'recent' ? { recipeUserId: user.externalId ?? user.id } : {};
  return jsonAnswer({ status: CoreStatus.ok, user: userJson(user, context.userShape, verified), ...recipeUserId });
}

export const hello = (): DoubleAnswer => ({ ...textAnswer(200, HELLO_BODY) });

export const apiVersion = (): DoubleAnswer => jsonAnswer({ versions: API_VERSIONS });
