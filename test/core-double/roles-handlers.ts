import { CoreErrorTexts, CoreStatus } from '../../core-client/src/contract/names.js';
import { type DoubleAnswer, fail, fieldInvalid, jsonAnswer, requireString } from './answers.js';
import type { HandlerContext } from './handlers.js';

/*
 * The user-roles recipe, answered as core-behaviour.md records it ("User roles"). Roles belong to the app (every
 * tenant sees them); a user's roles are given per tenant. Like metadata, assignments take any userId.
 */

/** The core trims a role (and a permission) and refuses one that is then empty. */
function normalised(value: string, field: string): string {
  const trimmed = value.trim();
  return trimmed === '' ? fail(400, CoreErrorTexts.emptyField(field)) : trimmed;
}

function bodyRole(context: HandlerContext): string {
  return normalised(requireString(context.body, 'role'), 'role');
}

function queryValue(context: HandlerContext, name: string): string {
  const value = context.query.get(name);
  return value === null ? fieldInvalid(name) : value;
}

/** `permissions` is optional; when given, an array of non-empty strings. */
function bodyPermissions(context: HandlerContext): string[] {
  const raw = context.body['permissions'];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return fieldInvalid('permissions');
  return raw.map((permission: unknown) => (typeof permission === 'string' ? normalised(permission, 'permissions') : fieldInvalid('permissions')));
}

/** PUT /recipe/role — creates the role, or adds the permissions to those of an existing one. */
export function putRole(context: HandlerContext): DoubleAnswer {
  const role = bodyRole(context);
  const createdNewRole = context.store.putRole(context.scope.appId, role, bodyPermissions(context));
  return jsonAnswer({ status: CoreStatus.ok, createdNewRole });
}

/** GET /recipe/role/permissions?role= */
export function rolePermissions(context: HandlerContext): DoubleAnswer {
  const permissions = context.store.permissionsOf(context.scope.appId, normalised(queryValue(context, 'role'), 'role'));
  return permissions === undefined ? jsonAnswer({ status: CoreStatus.unknownRole }) : jsonAnswer({ status: CoreStatus.ok, permissions });
}

/** GET /recipe/role/users?role= */
export function roleUsers(context: HandlerContext): DoubleAnswer {
  const role = normalised(queryValue(context, 'role'), 'role');
  if (context.store.permissionsOf(context.scope.appId, role) === undefined) return jsonAnswer({ status: CoreStatus.unknownRole });
  return jsonAnswer({ status: CoreStatus.ok, users: context.store.usersWithRole(context.scope, role) });
}

/** GET /recipe/roles */
export function listRoles(context: HandlerContext): DoubleAnswer {
  return jsonAnswer({ status: CoreStatus.ok, roles: context.store.rolesOf(context.scope.appId) });
}

/** PUT /recipe/user/role — the role must exist. */
export function addUserRole(context: HandlerContext): DoubleAnswer {
  const userId = requireString(context.body, 'userId');
  const result = context.store.addUserRole(context.scope, userId, bodyRole(context));
  if (result === 'unknownRole') return jsonAnswer({ status: CoreStatus.unknownRole });
  return jsonAnswer({ status: CoreStatus.ok, didUserAlreadyHaveRole: result.alreadyHad });
}

/** GET /recipe/user/roles?userId= */
export function userRoles(context: HandlerContext): DoubleAnswer {
  return jsonAnswer({ status: CoreStatus.ok, roles: context.store.userRolesOf(context.scope, queryValue(context, 'userId')) });
}

/** POST /recipe/user/role/remove — a role that does not exist is UNKNOWN_ROLE_ERROR, as the core answers it. */
export function removeUserRole(context: HandlerContext): DoubleAnswer {
  const userId = requireString(context.body, 'userId');
  const role = bodyRole(context);
  if (context.store.permissionsOf(context.scope.appId, role) === undefined) return jsonAnswer({ status: CoreStatus.unknownRole });
  return jsonAnswer({ status: CoreStatus.ok, didUserHaveRole: context.store.removeUserRole(context.scope, userId, role) });
}

/** POST /recipe/role/remove — also takes the role from every user. */
export function removeRole(context: HandlerContext): DoubleAnswer {
  return jsonAnswer({ status: CoreStatus.ok, didRoleExist: context.store.removeRole(context.scope.appId, bodyRole(context)) });
}
