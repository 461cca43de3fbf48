import { closeSync, createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { openOutputFile, writeFully, type NamedFile } from '../files/output-paths.js';
import type { CallOptions, CoreClient } from '../http/core-client.js';
import { RecordRejected } from '../http/errors.js';
import type { ImportOperation } from '../plan/operation.js';
import type { RoleSetup } from '../push/summary.js';

/*
 * The roles of the old system on the core (issue 21): every role the plan needs is created once before the first user
 * (`setUpRoles`), then each user gets its roles (`assignRoles`, one more journalled step of the user's steps), and a
 * rollback removes the roles the migration created once no user has them (`removeCreatedRoles`).
 */

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

export type { RoleSetup };

function listed(values: readonly string[]): string {
  return values.length === 0 ? 'none' : values.map((value) => `"${value}"`).join(', ');
}

/**
 * Creates every role the plan needs, once, before the first user. A role already on the core is never changed unless
 * `update`, and then only by adding the file's permissions it lacks (the core removes none here); a difference is
 * reported either way. A name the core refuses (400) is kept with the core's sentence. Other errors are thrown:
 * nothing can be decided without the core.
 */
export async function setUpRoles(client: RoleSetupClient, wanted: Readonly<Record<string, readonly string[]>>, options: RoleSetupOptions): Promise<RoleSetup> {
  const setup: RoleSetup = { created: [], existing: [], updated: [], differing: [], refused: {} };
  const record: NamedFile | undefined = options.dryRun || options.recordPath === undefined ? undefined : { role: 'the roles record', path: options.recordPath };
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

export type RoleAssignClient = Pick<CoreClient, 'addUserRole'>;

export interface RoleAssignment {
  /** Roles the user holds now: given by this call, or held already. */
  given: string[];
  /** Roles the core does not have (removed since they were created?): not given. */
  unknown: string[];
}

/**
 * Gives a user (by the id every call takes: the old id once mapped) the roles wanted, one call each. Roles the user
 * has and does not want are left alone: a caller that removes them (a sync) does so itself. `send` carries a call
 * through the caller's retries (the push's dispatcher); by default a call is sent as it is.
 */
export async function assignRoles(
  client: RoleAssignClient,
  userId: string,
  roles: readonly string[],
  send: <T>(call: (options: CallOptions) => Promise<T>) => Promise<T> = (call) => call({}),
): Promise<RoleAssignment> {
  const assignment: RoleAssignment = { given: [], unknown: [] };
  for (const role of roles) {
    const answer = await send((options) => client.addUserRole({ userId, role }, options));
    if (answer.outcome === 'unknownRole') assignment.unknown.push(role);
    else assignment.given.push(role);
  }
  return assignment;
}

/** The report lines of a user's roles step, as `code` and `reason`; every one names the record by its report line. */
export function roleNotes(
  item: ImportOperation,
  refused: Readonly<Record<string, string>>,
  unknownAtCore: readonly string[],
): { code: string; reason: string }[] {
  const identity = item.identity;
  const notes: { code: string; reason: string }[] = [];
  if (identity?.unreadableRoles !== undefined) {
    notes.push({ code: 'rolesUnreadable', reason: `the record's roles could not be read (${identity.unreadableRoles}): the user got none` });
  }
  const unknown = identity?.unknownRoles ?? [];
  if (unknown.length > 0) {
    notes.push({ code: 'roleUnknown', reason: `the roles file does not name ${listed(unknown)}: not given (add them to the roles file, or --role-map them)` });
  }
  for (const role of identity?.roles ?? []) {
    const sentence = refused[role];
    if (sentence !== undefined) notes.push({ code: 'roleRefused', reason: `the core refused the role "${role}": ${sentence}; the user did not get it` });
  }
  if (unknownAtCore.length > 0) {
    notes.push({ code: 'roleUnknown', reason: `the core has no role ${listed(unknownAtCore)} (removed since this migration created it?): not given` });
  }
  return notes;
}

export type RoleRemovalClient = Pick<CoreClient, 'roleUsers' | 'removeRole'>;

export interface RoleRemoval {
  /** Roles this migration created, as its record lists them. */
  created: number;
  removed: string[];
  /** Still held by users (not the migration's, or not removed): kept, with how many users hold each. */
  kept: { role: string; users: number }[];
}

/** The roles a push created, from its record (a torn last line is skipped: that role was never requested). */
export async function createdRoles(recordPath: string): Promise<string[]> {
  const roles = new Set<string>();
  if (!existsSync(recordPath)) return [];
  for await (const line of createInterface({ input: createReadStream(recordPath), crlfDelay: Infinity })) {
    try {
      const entry = JSON.parse(line) as { role?: unknown };
      if (typeof entry.role === 'string') roles.add(entry.role);
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
