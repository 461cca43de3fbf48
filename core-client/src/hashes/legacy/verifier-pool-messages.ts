import { z } from 'zod';
import { LegacyVerificationSchema } from './verify-legacy.js';

/**
 * What crosses the message port between the pool and a verifier thread. The password crosses as text (a Secret cannot
 * be cloned); the thread wraps it again at once and keeps nothing once it has answered.
 */
export const VerifyTaskSchema = z.object({ taskId: z.number().int(), password: z.string(), hash: z.string() });
export type VerifyTask = z.infer<typeof VerifyTaskSchema>;

export const VerifyAnswerSchema = z.object({ taskId: z.number().int(), verification: LegacyVerificationSchema });
export type VerifyAnswer = z.infer<typeof VerifyAnswerSchema>;
