import { describe, expect, it } from 'vitest';
import { planRecord } from '../../../core-client/src/plan/plan-record.js';
import { Problem } from '../../../core-client/src/problem.js';
import { describePlanRoles, parseRoleMap, parseRolesFile, readRoleValue, roleCandidates, rolesOfRecord } from '../../../core-client/src/roles/plan-roles.js';
import { PlanTally } from '../../../core-client/src/plan/summary.js';
import type { SourceUser } from '../../../core-client/src/sources/source-user.js';

const BCRYPT = '$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';

function user(extra: Partial<SourceUser>): SourceUser {
  return {
    kind: 'user',
    location: { file: 'users.json', index: 0 },
    email: 'ann@example.com',
    passwordHash: BCRYPT,
    sourceId: 'old-1',
    providers: [],
    ...extra,
  };
}

describe('roles read from a record', () => {
  it('reads a string (names separated by commas), a list of strings, and an object of true flags', () => {
    expect(readRoleValue('editor')).toEqual({ roles: ['editor'] });
    expect(readRoleValue(' admin , editor ,, ')).toEqual({ roles: ['admin', 'editor'] });
    expect(readRoleValue(['admin', ' beta '])).toEqual({ roles: ['admin', 'beta'] });
    expect(readRoleValue({ admin: true, beta: false, tier: 'gold' })).toEqual({ roles: ['admin'] });
    expect(readRoleValue(null)).toEqual({ roles: [] });
    expect(readRoleValue(3).unreadable).toBe('it is a number, not a role name, a list of them or an object of true/false');
    expect(readRoleValue(['admin', { name: 'x' }]).unreadable).toBe('the list holds an object, not a role name');
  });

  it('follows the path into claims, app metadata or a generic roles field; renames, drops and checks against the roles file', () => {
    const firebase = user({ profile: { customClaims: { roles: ['admin', 'editors', 'beta'] } } });
    const rules = { from: 'customClaims.roles', rename: { editors: 'editor', beta: '' }, permissions: { admin: ['all'], editor: ['write'] } };
    expect(rolesOfRecord(firebase, rules)).toEqual({ roles: ['admin', 'editor'], unknown: [] });
    expect(rolesOfRecord(firebase, { ...rules, permissions: { admin: [] } })).toEqual({ roles: ['admin'], unknown: ['editor'] });
    const auth0 = user({ profile: { appMetadata: { roles: 'viewer' } } });
    expect(rolesOfRecord(auth0, { from: 'appMetadata.roles', rename: {} })).toEqual({ roles: ['viewer'], unknown: [] });
    expect(rolesOfRecord(user({ roles: 'a,b' }), { from: 'roles', rename: {} })).toEqual({ roles: ['a', 'b'], unknown: [] });
    expect(rolesOfRecord(user({ roles: 7 }), { from: 'roles', rename: {} })).toEqual({
      roles: [],
      unknown: [],
      unreadable: 'roles: it is a number, not a role name, a list of them or an object of true/false',
    });
    expect(rolesOfRecord(user({}), { from: 'customClaims.roles', rename: {} })).toEqual({ roles: [], unknown: [] });
  });

  it('offers every place that looks like roles, never choosing one', () => {
    const record = user({ profile: { customClaims: { role: 'editor', admin: true, level: 3 }, appMetadata: { groups: ['ops'] } }, roles: ['x'] });
    expect(roleCandidates(record)).toEqual([
      { path: 'customClaims.role', roles: ['editor'] },
      { path: 'customClaims', roles: ['admin'] },
      { path: 'appMetadata.groups', roles: ['ops'] },
      { path: 'roles', roles: ['x'] },
    ]);
  });

  it('puts every account of the record under its roles, and the plan counts them with where they were found', () => {
    const record = user({
      profile: { customClaims: { roles: ['admin', 'ghost'] } },
      providers: [{ providerId: 'google.com', providerUserId: 'g-1' }],
    });
    const items = planRecord(record, {
      providerMap: { 'google.com': 'google' },
      roles: { from: 'customClaims.roles', rename: {}, permissions: { admin: [] } },
    });
    expect(items.map((item) => (item.kind === 'rejection' ? item.code : item.identity?.roles))).toEqual([['admin'], ['admin']]);
    expect(items.every((item) => item.kind !== 'rejection' && item.identity?.unknownRoles?.[0] === 'ghost')).toBe(true);
    const tally = new PlanTally('customClaims.roles');
    tally.addRecord({ location: record.location, items, rolesFound: roleCandidates(record) });
    const { roles } = tally.summary();
    expect(roles).toMatchObject({ from: 'customClaims.roles', wanted: { admin: 2 }, unknown: { ghost: 2 }, operationsWithRoles: 2 });
    expect(roles.found).toEqual([{ path: 'customClaims.roles', records: 1, roles: { admin: 1, ghost: 1 }, otherNames: 0 }]);
    expect(describePlanRoles(roles)).toEqual([
      'from customClaims.roles: admin 2 (2 operations get roles)',
      'not in the roles file (not given, reported): ghost 2',
      'found at customClaims.roles in 1 record(s): admin 1 · ghost 1',
    ]);
  });

  it('parses --role-map entries and the roles file, refusing what cannot be meant', () => {
    expect(parseRoleMap(['editors=editor', 'beta='])).toEqual({ editors: 'editor', beta: '' });
    expect(parseRoleMap(['=x'])).toMatchObject({ code: 'roleMapInvalid', kind: 'setting', setting: 'roleMap' });
    expect(parseRolesFile('{"admin":["users:write"],"viewer":[]}', '/roles.json')).toEqual({ admin: ['users:write'], viewer: [] });
    const notAList = parseRolesFile('{"admin":"all"}', '/roles.json');
    expect(notAList).toMatchObject({ code: 'rolesFileInvalid', kind: 'setting', setting: 'rolesFile' });
    expect(notAList instanceof Problem && notAList.words).toMatch(/^\{setting\} \/roles\.json must be a JSON object of role → list of permissions.*at admin/);
    const notJson = parseRolesFile('not json', '/roles.json');
    expect(notJson instanceof Problem && notJson.words).toMatch(/^\{setting\} \/roles\.json is not valid JSON/);
  });
});
