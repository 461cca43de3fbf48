import { describe, expect, it } from 'vitest';
import {
  ApiVersionAnswerSchema,
  CoreUserSchema,
  PasswordHashImportAnswerSchema,
  SignInAnswerSchema,
  SignInUpAnswerSchema,
} from '../../../core-client/src/contract/responses.js';
import { CorePaths, SIGNER_KEY_MISSING_PATTERN, VENDOR_SCRYPT } from '../../../core-client/src/contract/names.js';
import { PasswordHashImportBodySchema, SignInUpBodySchema } from '../../../core-client/src/contract/requests.js';

const recentUser = {
  id: 'u-1',
  isPrimaryUser: false,
  tenantIds: ['public'],
  timeJoined: 1,
  emails: ['a@b.c'],
  phoneNumbers: [],
  thirdParty: [],
  loginMethods: [{ recipeId: 'emailpassword', recipeUserId: 'u-1', email: 'a@b.c', verified: false, tenantIds: ['public'], timeJoined: 1 }],
};
const legacyUser = { id: 'u-2', email: 'a@b.c', timeJoined: 1 };

describe('contract names', () => {
  it('are the paths and values of the contract', () => {
    expect(CorePaths.passwordHashImport).toBe('/recipe/user/passwordhash/import');
    expect(CorePaths.signInUp).toBe('/recipe/signinup');
    expect(VENDOR_SCRYPT).toBe('vendor_scrypt');
    expect(SIGNER_KEY_MISSING_PATTERN.test("'firebase_password_hashing_signer_key' cannot be null")).toBe(true);
    expect(SIGNER_KEY_MISSING_PATTERN.test('password hash cannot be null')).toBe(false);
  });
});

describe('request bodies', () => {
  it('accept the contract fields and only vendor_scrypt as hashingAlgorithm', () => {
    expect(PasswordHashImportBodySchema.safeParse({ email: 'a@b.c', passwordHash: '$2a$x' }).success).toBe(true);
    expect(PasswordHashImportBodySchema.safeParse({ email: 'a@b.c', passwordHash: 'x', hashingAlgorithm: 'vendor_scrypt' }).success).toBe(true);
    expect(PasswordHashImportBodySchema.safeParse({ email: 'a@b.c', passwordHash: 'x', hashingAlgorithm: 'bcrypt' }).success).toBe(false);
    expect(SignInUpBodySchema.safeParse({ thirdPartyId: 'g', thirdPartyUserId: '1', email: { id: 'a@b.c', isVerified: 'true' } }).success).toBe(false);
  });
});

describe('answers', () => {
  it('accept both user shapes and extra fields', () => {
    expect(CoreUserSchema.parse(recentUser).id).toBe('u-1');
    expect(CoreUserSchema.parse(legacyUser).id).toBe('u-2');
    expect(CoreUserSchema.safeParse({ email: 'a@b.c' }).success).toBe(false);
    const answer = PasswordHashImportAnswerSchema.parse({ status: 'OK', user: recentUser, didUserAlreadyExist: true, newField: 1 });
    expect(answer.didUserAlreadyExist).toBe(true);
  });

  it('tell OK and non-OK sign-in-up answers apart', () => {
    expect(SignInUpAnswerSchema.parse({ status: 'OK', createdNewUser: true, user: legacyUser, recipeUserId: 'u-2' })).toMatchObject({
      createdNewUser: true,
    });
    expect(SignInUpAnswerSchema.parse({ status: 'EMAIL_CHANGE_NOT_ALLOWED_ERROR', reason: 'r' })).toEqual({
      status: 'EMAIL_CHANGE_NOT_ALLOWED_ERROR',
      reason: 'r',
    });
    expect(SignInUpAnswerSchema.safeParse({ status: 'OK' }).success).toBe(false);
  });

  it('read sign-in and apiversion answers', () => {
    expect(SignInAnswerSchema.parse({ status: 'WRONG_CREDENTIALS_ERROR' }).status).toBe('WRONG_CREDENTIALS_ERROR');
    expect(SignInAnswerSchema.safeParse({ status: 'MAYBE' }).success).toBe(false);
    expect(ApiVersionAnswerSchema.parse({ versions: ['5.2', '2.21'] }).versions).toEqual(['5.2', '2.21']);
    expect(ApiVersionAnswerSchema.safeParse({ versions: '5.2' }).success).toBe(false);
  });
});
