import { CorePaths, CoreStatus } from '../contract/names.js';
import { type RoleBody, RoleBodySchema, type UserRoleBody, UserRoleBodySchema, RemoveRoleBodySchema } from '../contract/requests.js';
import {
  PutRoleAnswerSchema,
  RolePermissionsAnswerSchema,
  RolesAnswerSchema,
  RoleUsersAnswerSchema,
  AddUserRoleAnswerSchema,
  RemoveUserRoleAnswerSchema,
  RemoveRoleAnswerSchema,
} from '../contract/responses.js';
import type { CallOptions, CoreChannel, Exchange } from './channel.js';

/** The user roles recipe: roles, their permissions, and the roles a user has. */

export type AddUserRoleResult = { outcome: 'added' | 'alreadyHad' | 'unknownRole' };

/**
 * `PUT /recipe/role`: creates the role with these permissions, or adds them to an existing role's own (the core
 * never removes one here). `created` is false for a role that existed. A name the core refuses is a RecordRejected.
 */
export async function putRole(channel: CoreChannel, body: RoleBody, options: CallOptions): Promise<{ created: boolean }> {
  const payload = RoleBodySchema.parse(body);
  const exchange: Exchange = { method: 'PUT', path: channel.recipePath(CorePaths.role), body: payload };
  return channel.call(exchange, options, (answer) => ({ created: channel.json(answer, PutRoleAnswerSchema).createdNewRole }));
}

/** `GET /recipe/role/permissions`: a role's permissions, or undefined when the core has no such role. */
export async function rolePermissions(channel: CoreChannel, role: string, options: CallOptions): Promise<string[] | undefined> {
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.rolePermissions, { role }) };
  return channel.call(exchange, options, (answer) => {
    const parsed = channel.json(answer, RolePermissionsAnswerSchema);
    return parsed.status === CoreStatus.ok ? [...parsed.permissions] : undefined;
  });
}

/** `GET /recipe/roles`: every role of the app (also the probe that the core has the roles recipe). */
export async function listRoles(channel: CoreChannel, options: CallOptions): Promise<string[]> {
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.roles) };
  return channel.call(exchange, options, (answer) => [...channel.json(answer, RolesAnswerSchema).roles]);
}

/** `GET /recipe/role/users`: the ids of the tenant's users that have the role, or undefined when there is no such role. */
export async function roleUsers(channel: CoreChannel, role: string, options: CallOptions): Promise<string[] | undefined> {
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.roleUsers, { role }) };
  return channel.call(exchange, options, (answer) => {
    const parsed = channel.json(answer, RoleUsersAnswerSchema);
    return parsed.status === CoreStatus.ok ? [...parsed.users] : undefined;
  });
}

/** `PUT /recipe/user/role`: `unknownRole` when the role does not exist (create it first with `putRole`). */
export async function addUserRole(channel: CoreChannel, body: UserRoleBody, options: CallOptions): Promise<AddUserRoleResult> {
  const payload = UserRoleBodySchema.parse(body);
  const exchange: Exchange = { method: 'PUT', path: channel.recipePath(CorePaths.userRole), body: payload };
  return channel.call(exchange, options, (answer): AddUserRoleResult => {
    const parsed = channel.json(answer, AddUserRoleAnswerSchema);
    if (parsed.status === CoreStatus.unknownRole) return { outcome: 'unknownRole' };
    return { outcome: parsed.didUserAlreadyHaveRole ? 'alreadyHad' : 'added' };
  });
}

/** `GET /recipe/user/roles`: the user's roles in this client's tenant. */
export async function userRoles(channel: CoreChannel, userId: string, options: CallOptions): Promise<string[]> {
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.userRoles, { userId }) };
  return channel.call(exchange, options, (answer) => [...channel.json(answer, RolesAnswerSchema).roles]);
}

/** `POST /recipe/user/role/remove`: `hadRole` false also for a role that does not exist (no user can have it). */
export async function removeUserRole(channel: CoreChannel, body: UserRoleBody, options: CallOptions): Promise<{ hadRole: boolean }> {
  const payload = UserRoleBodySchema.parse(body);
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.userRoleRemove), body: payload };
  return channel.call(exchange, options, (answer) => {
    const parsed = channel.json(answer, RemoveUserRoleAnswerSchema);
    return { hadRole: parsed.status === CoreStatus.ok && parsed.didUserHaveRole };
  });
}

/** `POST /recipe/role/remove`: the role goes, and with it every user's assignment of it. */
export async function removeRole(channel: CoreChannel, role: string, options: CallOptions): Promise<{ existed: boolean }> {
  const payload = RemoveRoleBodySchema.parse({ role });
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.roleRemove), body: payload };
  return channel.call(exchange, options, (answer) => ({ existed: channel.json(answer, RemoveRoleAnswerSchema).didRoleExist }));
}
