import type { CallOptions, CoreClient } from '../http/core-client.js';

/** Role names in a sentence. */
export function listed(values: readonly string[]): string {
  return values.length === 0 ? 'none' : values.map((value) => `"${value}"`).join(', ');
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

/** What an operation of the plan says of a user's roles (its `identity`'s role fields). */
export interface OperationRoles {
  roles?: readonly string[] | undefined;
  unknownRoles?: readonly string[] | undefined;
  unreadableRoles?: string | undefined;
}

/** The report lines of a user's roles step, as `code` and `reason`; every one names the record by its report line. */
export function roleNotes(
  identity: OperationRoles | undefined,
  refused: Readonly<Record<string, string>>,
  unknownAtCore: readonly string[],
): { code: string; reason: string }[] {
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
