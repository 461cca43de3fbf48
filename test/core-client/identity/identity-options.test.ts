import { describe, expect, it } from 'vitest';
import { identityOptionsFor, type PlanIdentity } from '../../../core-client/src/identity/features.js';
import { metadataOf } from '../../../core-client/src/plan/metadata.js';
import { defaultIdentityOptions } from '../../../core-client/src/identity/identity-options.js';
import { emptyPlanRoles } from '../../../core-client/src/roles/plan-roles.js';

const everything = { mapping: true, verification: true, metadata: true, lookup: true, removal: true, roles: true, emailChange: true, passwordless: true };
const plan: PlanIdentity = {
  passwordImports: 3,
  passwordlessSignInUps: 0,
  identity: { keepsSourceId: 3, verifiedEmails: 2, withMetadata: 1, separateAccounts: 0, disabledSkipped: 0, disabledImported: 0 },
  roles: { ...emptyPlanRoles(), wanted: { admin: 1 }, operationsWithRoles: 1 },
};

describe('identity options for a core', () => {
  it('keeps every step when the core has every feature', () => {
    expect(identityOptionsFor(defaultIdentityOptions, everything, plan, 'core')).toEqual({ options: defaultIdentityOptions });
  });

  it('stops with one sentence naming each missing feature and the flag that turns it off', () => {
    const result = identityOptionsFor(defaultIdentityOptions, { ...everything, mapping: false, lookup: false }, plan, 'http://127.0.0.1:3567 (tenant public)');
    expect(result).toEqual({ problem: expect.stringContaining('user id mapping (/recipe/userid/map), user lookup by email'), missing: ['mapping', 'lookup'] });
    expect('problem' in result && result.problem).toContain('pass --no-keep-ids --existing replace');
  });

  it('runs without a missing feature the operator turned off, or the plan does not need', () => {
    const noMapping = identityOptionsFor({ ...defaultIdentityOptions, keepIds: false }, { ...everything, mapping: false }, plan, 'core');
    expect(noMapping).toEqual({ options: { ...defaultIdentityOptions, keepIds: false } });
    const noIds = identityOptionsFor(
      defaultIdentityOptions,
      { ...everything, mapping: false },
      { ...plan, identity: { ...plan.identity, keepsSourceId: 0 } },
      'core',
    );
    expect(noIds).toEqual({ options: { ...defaultIdentityOptions, keepIds: false } });
    // Replace can do without the lookup.
    const replace = identityOptionsFor({ ...defaultIdentityOptions, existing: 'replace' }, { ...everything, lookup: false }, plan, 'core');
    expect(replace).toEqual({ options: { ...defaultIdentityOptions, existing: 'replace', lookup: false } });
  });

  it('a core without the roles recipe stops a plan with roles, naming --no-roles; without roles in the plan it runs', () => {
    const result = identityOptionsFor(defaultIdentityOptions, { ...everything, roles: false }, plan, 'core');
    expect(result).toEqual({ problem: expect.stringContaining('user roles (/recipe/role)'), missing: ['roles'] });
    expect('problem' in result && result.problem).toContain('pass --no-roles');
    const noRoles = identityOptionsFor(defaultIdentityOptions, { ...everything, roles: false }, { ...plan, roles: emptyPlanRoles() }, 'core');
    expect(noRoles).toEqual({ options: { ...defaultIdentityOptions, roles: false } });
  });
});

describe('a core without the passwordless calls', () => {
  const withPasswordless: PlanIdentity = { ...plan, passwordlessSignInUps: 2 };

  it('stops a plan with phone or email-link users before anything is sent, naming --no-passwordless', () => {
    const result = identityOptionsFor(defaultIdentityOptions, { ...everything, passwordless: false }, withPasswordless, 'core');
    expect(result).toEqual({
      problem: expect.stringContaining('passwordless users (/recipe/signinup/code, /users/by-accountinfo)'),
      missing: ['passwordless'],
    });
    expect('problem' in result && result.problem).toContain('pass --no-passwordless');
    expect('problem' in result && result.problem).toContain('listed in the report for a password reset');
  });

  it('runs a plan without such users, or one the operator told to leave them out', () => {
    expect(identityOptionsFor(defaultIdentityOptions, { ...everything, passwordless: false }, plan, 'core')).toEqual({
      options: { ...defaultIdentityOptions, passwordless: false },
    });
    const leftOut = { ...defaultIdentityOptions, passwordless: false };
    expect(identityOptionsFor(leftOut, { ...everything, passwordless: false }, withPasswordless, 'core')).toEqual({ options: leftOut });
  });

  it('a sync (no counted plan) needs the calls unless they are turned off', () => {
    expect(identityOptionsFor(defaultIdentityOptions, { ...everything, passwordless: false }, undefined, 'core')).toMatchObject({ missing: ['passwordless'] });
  });
});

describe('user metadata of a migrated user', () => {
  it('holds the profile under documented names, where it came from, and disabled: true when imported disabled', () => {
    expect(
      metadataOf({
        sourceId: 'fb-1',
        system: 'firebase',
        carriesSourceId: true,
        emailVerified: true,
        disabled: true,
        profile: { displayName: 'Ada', customClaims: { role: 'admin' } },
      }),
    ).toEqual({ displayName: 'Ada', customClaims: { role: 'admin' }, migratedFrom: { system: 'firebase', sourceId: 'fb-1' }, disabled: true });
  });

  it('names the user a separate account belongs to, and is absent when there is nothing to keep', () => {
    expect(metadataOf({ sourceId: 'fb-1', carriesSourceId: false, emailVerified: false, disabled: false })).toEqual({
      migratedFrom: { sourceId: 'fb-1', separateAccountOf: 'fb-1' },
    });
    expect(metadataOf({ carriesSourceId: false, emailVerified: false, disabled: false })).toBeUndefined();
  });
});
