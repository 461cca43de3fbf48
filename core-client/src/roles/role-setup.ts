import { closeSync, createReadStream, existsSync } from 'node:fs';
import { z } from 'zod';
import { createInterface } from 'node:readline';
import { openOutputFile, writeFully, type NamedFile } from '../files/output-paths.js';
import type { CallOptions, CoreClient } from '../http/core-client.js';
import { RecordRejected } from '../http/errors.js';
import { listed } from './user-roles.js';

/*
 * The roles of the old system on the core (issue 21): every role the plan needs is created once before the first user
 * (`setUpRoles`), then each user gets its roles (`assignRoles`, one more journalled step of the user's steps), and a
 * rollback removes the roles the migration created once no user has them (`removeCreatedRoles`).
 */

/** What the roles step did before the first user (issue 21); see `setUpRoles`. */
export const RoleSetupSchema = z.object({
  /** Created by this run (in a dry run: that would be). */
  created: z.array(z.string()),
  existing: z.array(z.string()),
  /** Existing roles given the roles file's missing permissions (`--roles-update`). */
  updated: z.array(z.string()),
  /** A sentence per existing role whose permissions differ from the roles file's, left as they were. */
  differing: z.array(z.string()),
  /** Role → the core's sentence, for a name the core refused: no user got it, each record's report line says so. */
  refused: z.record(z.string(), z.string()),
});
export type RoleSetup = z.infer<typeof RoleSetupSchema>;

/** Where a push records the roles it created, beside its journal: the rollback removes exactly those. */
export function rolesRecordPath(journalPath: string): string {
  return `${journalPath}.roles`;
}

export type RoleSetupClient = Pick<CoreClient, 'putRole' | 'rolePermissions'>;

export interface RoleSetupOptions {
  /** A role already on the core that lacks permissions the roles file gives gets them added (`--roles-update`). */
  update: boolean;
  /** Only look: nothing is created or changed, nothing recorded. */
  dryRun: boolean;
  /** The roles record (`rolesRecordPath`); a created role is written there before the request that creates it. */
  recordPath?: string;
  /** Whether the permissions come from a roles file; without one a role has none to compare. */
  fromFile: boolean;
  call?: CallOptions;
}

/**
 * Creates every role the plan needs, once, before the first user. A role already on the core is never changed unless
 * `update`, and then only by adding the file's permissions it lacks (the core removes none here); a difference is
 * reported either way. A name the core refuses (400) is kept with the core's sentence. Other errors are thrown:
 * nothing can be decided without the core.
 */
export async function setUpRoles(client: RoleSetupClient, wanted: Readonly<Record<string, readonly string[]>>, options: RoleSetupOptions): Promise<RoleSetup> {
  const setup: RoleSetup = { created: [], existing: [], updated: [], differing: [], refused: {} };
  const record: NamedFile | undefined = options.dryRun || options.recordPath === undefined ? undefined : { role: 'rolesRecord', path: options.recordPath };
  const fd = record === undefined ? undefined : openOutputFile(record, { append: true });
  const call = options.call ?? {};
  try {
    for (const [role, permissions] of Object.entries(wanted)) {
      try {
        const held = await client.rolePermissions(role, call);
        if (held === undefined) {
          if (!options.dryRun) {
            // Written ahead: a kill after the request cannot leave a created role the rollback does not know.
            if (fd !== undefined) writeFully(fd, `${JSON.stringify({ role })}\n`);
            await client.putRole({ role, permissions: [...permissions] }, call);
          }
          setup.created.push(role);
          continue;
        }
        setup.existing.push(role);
        if (!options.fromFile) continue;
        const missing = permissions.filter((permission) => !held.includes(permission));
        const extra = held.filter((permission) => !permissions.includes(permission));
        if (missing.length > 0 && options.update) {
          if (!options.dryRun) await client.putRole({ role, permissions: missing }, call);
          setup.updated.push(role);
        } else if (missing.length > 0) {
          setup.differing.push(
            `The role "${role}" is already on the core without ${listed(missing)} of the roles file: left as it is (--roles-update adds them).`,
          );
        }
        if (extra.length > 0) {
          setup.differing.push(
            `The role "${role}" on the core also has ${listed(extra)}, which the roles file does not give: left as they are (the core's role calls never remove a permission).`,
          );
        }
      } catch (error) {
        if (error instanceof RecordRejected) setup.refused[role] = error.coreMessage;
        else throw error;
      }
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return setup;
}

export type RoleRemovalClient = Pick<CoreClient, 'roleUsers' | 'removeRole'>;

export interface RoleRemoval {
  /** Roles this migration created, as its record lists them. */
  created: number;
  removed: string[];
  /** Still held by users (not the migration's, or not removed): kept, with how many users hold each. */
  kept: { role: string; users: number }[];
}

/** A line of the roles record: a role the push created. */
const CreatedRoleSchema = z.looseObject({ role: z.string() });

/** The roles a push created, from its record (a torn last line is skipped: that role was never requested). */
export async function createdRoles(recordPath: string): Promise<string[]> {
  const roles = new Set<string>();
  if (!existsSync(recordPath)) return [];
  for await (const line of createInterface({ input: createReadStream(recordPath), crlfDelay: Infinity })) {
    try {
      const entry = CreatedRoleSchema.safeParse(JSON.parse(line));
      if (entry.success) roles.add(entry.data.role);
    } catch {
      // A torn last line: the push was killed before its request left.
    }
  }
  return [...roles];
}

/**
 * Removes the roles a push created once no user of the tenant has them (the users' assignments went with the users).
 * A role someone gave to another user since is kept, and said. A dry run only counts the roles created.
 */
export async function removeCreatedRoles(
  client: RoleRemovalClient,
  recordPath: string,
  options: { dryRun: boolean; call?: CallOptions },
): Promise<RoleRemoval> {
  const roles = await createdRoles(recordPath);
  const removal: RoleRemoval = { created: roles.length, removed: [], kept: [] };
  // A dry run removes no user, so every role would look held: it only says how many roles the push created.
  if (options.dryRun) return removal;
  const call = options.call ?? {};
  for (const role of roles) {
    const users = await client.roleUsers(role, call);
    if (users === undefined) continue; // Already gone (an earlier rollback, or removed by hand).
    if (users.length > 0) {
      removal.kept.push({ role, users: users.length });
      continue;
    }
    await client.removeRole(role, call);
    removal.removed.push(role);
  }
  return removal;
}
