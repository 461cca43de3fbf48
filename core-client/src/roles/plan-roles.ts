import { z } from 'zod';
import { Problem } from '../problem.js';
import type { SourceUser } from '../sources/source-user.js';
import { optionalFrom } from '../optional.js';

/**
 * Roles of the old system (issue 21). Where a record keeps them differs by system and project: Firebase custom claims
 * (`{"role":"editor"}`, `{"roles":["admin"]}`, `{"admin":true}`), Auth0 `app_metadata.roles`, a generic export's
 * mapped `roles` field, a Cognito user's groups (`roles`) or a `custom:role` attribute (`customAttributes.role`). The
 * operator names the place (`--roles-from`); the plan only offers what it found.
 */

/** How roles are read and renamed: the settings `--roles-from`, `--role-map` and `--roles-file`. */
export interface RoleRules {
  /** A dotted path into the record as read: `customClaims.roles`, `appMetadata.roles`, `roles` (a generic export). */
  from: string;
  /** Old name → new name; an empty new name leaves the role out. */
  rename: Readonly<Record<string, string>>;
  /** The roles file: each role with its permissions. When given, a role outside it is unknown (neither created nor given). */
  permissions?: Readonly<Record<string, readonly string[]>>;
}

/** A record's roles under the rules, after renaming, each once. */
export interface RecordRoles {
  roles: string[];
  /** Roles the roles file does not name. */
  unknown: string[];
  /** Why the value at the path is no roles at all (a number, a list of objects), for the report. */
  unreadable?: string;
}

/** The profile objects of a record that may hold roles, by the name a path gives them. */
const containers = ['customClaims', 'appMetadata', 'userMetadata', 'customAttributes'] as const;
/** Keys inside those objects that hold roles in the projects seen. */
const ROLE_KEY = /^(roles?|groups?)$/i;

/** The record as `--roles-from` paths see it: the profile's objects, and a generic export's `roles` field. */
function roleRoot(user: SourceUser): Record<string, unknown> {
  const profile = user.profile ?? {};
  const root: Record<string, unknown> = {};
  for (const name of containers) if (profile[name] !== undefined) root[name] = profile[name];
  if (user.roles !== undefined) root['roles'] = user.roles;
  return root;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a dotted path (an exact key with dots first, as a generic export's field names may have them). */
function valueAt(root: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(root, path)) return root[path];
  let value: unknown = root;
  for (const part of path.split('.')) {
    if (!isPlainObject(value) || !Object.hasOwn(value, part)) return undefined;
    value = value[part];
  }
  return value;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Role names from a value: a string (names separated by commas), a list of strings, or an object whose `true` keys
 * are the roles (`{"admin":true,"beta":false}` → `admin`; other values are not roles). Names are trimmed; empty ones
 * carry no role. Anything else is unreadable, with the reason.
 */
export function readRoleValue(value: unknown): { roles: string[]; unreadable?: string } {
  if (value === undefined || value === null) return { roles: [] };
  if (typeof value === 'string') return { roles: splitNames(value) };
  if (Array.isArray(value)) {
    const roles: string[] = [];
    for (const element of value) {
      if (typeof element !== 'string') return { roles: [], unreadable: `the list holds ${typeName(element)}, not a role name` };
      roles.push(...splitNames(element));
    }
    return { roles };
  }
  if (isPlainObject(value)) {
    return {
      roles: Object.keys(value)
        .filter((key) => value[key] === true && key.trim() !== '')
        .map((key) => key.trim()),
    };
  }
  return { roles: [], unreadable: `it is ${typeName(value)}, not a role name, a list of them or an object of true/false` };
}

function splitNames(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** A record's roles under the rules: read at the path, renamed, each once, and checked against the roles file. */
export function rolesOfRecord(user: SourceUser, rules: RoleRules): RecordRoles {
  const read = readRoleValue(valueAt(roleRoot(user), rules.from));
  const renamed = new Set<string>();
  for (const name of read.roles) {
    const target = Object.hasOwn(rules.rename, name) ? (rules.rename[name] ?? name) : name;
    if (target !== '') renamed.add(target);
  }
  const roles: string[] = [];
  const unknown: string[] = [];
  for (const name of renamed) {
    if (rules.permissions === undefined || Object.hasOwn(rules.permissions, name)) roles.push(name);
    else unknown.push(name);
  }
  return { roles, unknown, ...optionalFrom('unreadable', read.unreadable, (why) => `${rules.from}: ${why}`) };
}

/** A place in a record that holds role-like values, and the names found there. */
export interface RoleCandidate {
  path: string;
  roles: string[];
}

/**
 * Where this record may keep roles, for the plan to offer (never to choose): a `roles`/`role`/`groups` key of custom
 * claims, app or user metadata; one of those objects itself when it holds `true` flags (`{"admin":true}`); a
 * generic export's `roles` field.
 */
export function roleCandidates(user: SourceUser): RoleCandidate[] {
  // Most records of most exports have neither: no object is built for them (the plan reads >100,000 records/s).
  if (user.profile === undefined && user.roles === undefined) return [];
  const candidates: RoleCandidate[] = [];
  const root = roleRoot(user);
  for (const name of containers) {
    const container = root[name];
    if (!isPlainObject(container)) continue;
    for (const key of Object.keys(container)) {
      if (!ROLE_KEY.test(key)) continue;
      const { roles } = readRoleValue(container[key]);
      if (roles.length > 0) candidates.push({ path: `${name}.${key}`, roles });
    }
    const flags = Object.keys(container).filter((key) => container[key] === true);
    if (flags.length > 0) candidates.push({ path: name, roles: flags });
  }
  if (root['roles'] !== undefined) {
    const { roles } = readRoleValue(root['roles']);
    if (roles.length > 0) candidates.push({ path: 'roles', roles });
  }
  return candidates;
}

/** Role names listed per place found; further names are counted together, so the summary stays small. */
export const LISTED_ROLE_NAMES = 50;
/** Distinct roles a push can create before its first user; more are not roles but per-user data. */
export const MAX_WANTED_ROLES = 1_000;

export const PlanRolesSchema = z.object({
  /** Where the roles were read from (`--roles-from`), when set. */
  from: z.string().optional(),
  /** Places in the records that hold role-like values: how many records, and the names with how many records each. */
  found: z.array(z.object({ path: z.string(), records: z.number(), roles: z.record(z.string(), z.number()), otherNames: z.number() })),
  /** With `--roles-from`: each role the push creates and gives, with how many operations get it (after `--role-map`). */
  wanted: z.record(z.string(), z.number()),
  /** Distinct roles beyond `MAX_WANTED_ROLES`: a push with roles refuses to start. */
  wantedNotListed: z.number(),
  /** Roles the roles file does not name: neither created nor given, reported per record. */
  unknown: z.record(z.string(), z.number()),
  /** Operations that get at least one role. */
  operationsWithRoles: z.number(),
  /** Records whose value at the path is no roles. */
  unreadable: z.number(),
});
export type PlanRoles = z.infer<typeof PlanRolesSchema>;

export function emptyPlanRoles(): PlanRoles {
  return { found: [], wanted: {}, wantedNotListed: 0, unknown: {}, operationsWithRoles: 0, unreadable: 0 };
}

/** Adds one record's candidates to the summary's `found`, within its bounds. */
export function tallyCandidates(summary: PlanRoles, candidates: readonly RoleCandidate[]): void {
  for (const candidate of candidates) {
    let place = summary.found.find((entry) => entry.path === candidate.path);
    if (place === undefined) {
      place = { path: candidate.path, records: 0, roles: {}, otherNames: 0 };
      summary.found.push(place);
    }
    place.records += 1;
    for (const role of candidate.roles) {
      if (Object.hasOwn(place.roles, role)) place.roles[role] = (place.roles[role] ?? 0) + 1;
      else if (Object.keys(place.roles).length < LISTED_ROLE_NAMES) place.roles[role] = 1;
      else place.otherNames += 1;
    }
  }
}

/** Adds one operation's roles to the summary. */
export function tallyOperationRoles(summary: PlanRoles, roles: readonly string[], unknown: readonly string[]): void {
  if (roles.length > 0) summary.operationsWithRoles += 1;
  for (const role of roles) {
    if (Object.hasOwn(summary.wanted, role)) summary.wanted[role] = (summary.wanted[role] ?? 0) + 1;
    else if (Object.keys(summary.wanted).length < MAX_WANTED_ROLES) summary.wanted[role] = 1;
    else summary.wantedNotListed += 1;
  }
  for (const role of unknown) {
    if (Object.hasOwn(summary.unknown, role) || Object.keys(summary.unknown).length < MAX_WANTED_ROLES)
      summary.unknown[role] = (summary.unknown[role] ?? 0) + 1;
  }
}

/** `old=new` entries (`--role-map`, repeatable) as a rename table; `old=` leaves the role out. */
export function parseRoleMap(entries: readonly string[]): Record<string, string> | Problem<'roleMap', 'roleMapInvalid'> {
  const rename: Record<string, string> = {};
  for (const entry of entries) {
    const separator = entry.indexOf('=');
    const from = entry.slice(0, Math.max(0, separator)).trim();
    if (separator < 1 || from === '')
      return new Problem('roleMapInvalid', 'setting', 'roleMap', `{setting} "${entry}" must look like old=new, e.g. editors=editor (old= leaves the role out)`);
    rename[from] = entry.slice(separator + 1).trim();
  }
  return rename;
}

const RolesFileSchema = z.record(z.string().trim().min(1, 'a role name cannot be empty'), z.array(z.string().trim().min(1, 'a permission cannot be empty')));

/** The roles file (`path`, named in its problem): a JSON object of role → permissions, e.g. `{"admin":["users:write"],"viewer":[]}`. */
export function parseRolesFile(text: string, path: string): Record<string, string[]> | Problem<'rolesFile', 'rolesFileInvalid'> {
  const invalid = (why: string) => new Problem('rolesFileInvalid', 'setting', 'rolesFile', `{setting} ${path} ${why}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return invalid(`is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = RolesFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  return invalid(`must be a JSON object of role → list of permissions, e.g. {"admin":["users:write"]}${where}: ${issue?.message ?? 'not valid'}`);
}

function namesWithCounts(entries: Readonly<Record<string, number>>): string {
  const listed = Object.entries(entries)
    .sort(([, a], [, b]) => b - a)
    .map(([name, times]) => `${name} ${times}`);
  return listed.length === 0 ? 'none' : listed.join(' · ');
}

/**
 * The roles of a plan in a few lines, for both faces: what the push gives (with `--roles-from`), and every place in
 * the records that holds role-like values, with counts, so the operator picks the path.
 */
export function describePlanRoles(roles: PlanRoles): string[] {
  const lines: string[] = [];
  if (roles.from !== undefined) {
    lines.push(`from ${roles.from}: ${namesWithCounts(roles.wanted)} (${roles.operationsWithRoles} operations get roles)`);
    if (Object.keys(roles.unknown).length > 0) lines.push(`not in the roles file (not given, reported): ${namesWithCounts(roles.unknown)}`);
    if (roles.unreadable > 0) lines.push(`${roles.unreadable} record(s) hold no readable roles there (reported)`);
    if (roles.wantedNotListed > 0) lines.push(`more than ${MAX_WANTED_ROLES} distinct roles: a push with them refuses to start`);
  }
  for (const place of roles.found) {
    const more = place.otherNames > 0 ? ` (+${place.otherNames} more)` : '';
    lines.push(`found at ${place.path} in ${place.records} record(s): ${namesWithCounts(place.roles)}${more}`);
  }
  if (roles.from === undefined && roles.found.length > 0) lines.push('no roles are given until a roles path names one of these (--roles-from)');
  return lines;
}
