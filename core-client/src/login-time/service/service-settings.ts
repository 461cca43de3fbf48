import { z } from 'zod';
import { AttemptLimitSettingsSchema } from '../attempt-limits.js';

/** The default port of `login-migration serve`: the one after the core's 3567. */
export const DEFAULT_LOGIN_SERVICE_PORT = 3568;
/** The port when `--port` is not given: the image sets it, and its health check reads it. */
export const LOGIN_SERVICE_PORT_ENV = 'LOGIN_MIGRATION_PORT';
/** The waiting store when `--store` is not given: the infra's container hands it over so, with the keys (never on a command line). */
export const LOGIN_STORE_ENV = 'LOGIN_MIGRATION_STORE';

/**
 * How a login-time migration service listens and what it accepts: defaults and bounds in one place, which the
 * command's flags and the infra's container read.
 */
export const LoginServiceSettingsSchema = z.object({
  /** 127.0.0.1 by default: the application's backend is its only client, and it runs beside it. */
  host: z.string().min(1).default('127.0.0.1'),
  /** 0 asks the system for a free port (the service prints the one it got). */
  port: z.number().int().min(0).max(65_535).default(DEFAULT_LOGIN_SERVICE_PORT),
  /** A sign-in's body is an email and a password: a few hundred bytes. */
  maxBodyBytes: z
    .number()
    .int()
    .min(256)
    .max(1024 * 1024)
    .default(8 * 1024),
  /** How long SIGTERM waits for the sign-ins under way before it closes their connections. */
  shutdownGraceSeconds: z.number().int().min(0).max(600).default(10),
  /** Once 3 rounds of `/health`'s checks ran at once, one more every so many seconds: probes never cost the core one round each. */
  healthRoundSeconds: z.number().int().min(0).max(300).default(5),
  limits: AttemptLimitSettingsSchema.prefault({}),
});
export type LoginServiceSettings = z.infer<typeof LoginServiceSettingsSchema>;
export type LoginServiceSettingsInput = z.input<typeof LoginServiceSettingsSchema>;

/** The body of `POST /migrate`. The password is at most 1,024 characters: no legacy family reads more. */
export const MigrateRequestSchema = z.strictObject({
  email: z.string().max(1024),
  password: z.string().min(1).max(1024),
  /** The end user's address as the backend saw it; without it the backend's own address is counted for the limits. */
  clientAddress: z.union([z.ipv4(), z.ipv6()]).optional(),
});
