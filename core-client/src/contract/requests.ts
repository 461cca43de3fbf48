import { z } from 'zod';
import { VENDOR_SCRYPT } from './names.js';

/** Contract section 2.1: the body of `POST /recipe/user/passwordhash/import`. */
export const PasswordHashImportBodySchema = z.object({
  email: z.string(),
  passwordHash: z.string(),
  /** Only for the scrypt variant; BCrypt and Argon2 hashes omit it. */
  hashingAlgorithm: z.literal(VENDOR_SCRYPT).optional(),
});
export type PasswordHashImportBody = z.infer<typeof PasswordHashImportBodySchema>;

/** Contract section 2.3: the body of `POST /recipe/signinup`. */
export const SignInUpBodySchema = z.object({
  thirdPartyId: z.string(),
  thirdPartyUserId: z.string(),
  email: z.object({
    id: z.string(),
    isVerified: z.boolean(),
  }),
});
export type SignInUpBody = z.infer<typeof SignInUpBodySchema>;

/** Not in the contract; a core may have it (core-behaviour.md): the body of `POST /recipe/signin`. */
export const SignInBodySchema = z.object({
  email: z.string(),
  password: z.string(),
});
export type SignInBody = z.infer<typeof SignInBodySchema>;
