import { describe, expect, it } from 'vitest';
import { settingFlag, settingName } from '../../../core-client/src/settings/setting-flags.js';
import { MigrationSettingsSchema } from '../../../core-client/src/settings/settings.js';
import type { FieldSpec } from '../../../tui/src/app/screen.js';
import { initialAppState, type AppState } from '../../../tui/src/app/state.js';
import { connectScreen } from '../../../tui/src/screens/connect.js';
import { hashesScreen } from '../../../tui/src/screens/hashes.js';
import { identityScreen } from '../../../tui/src/screens/identity.js';
import { reviewScreen } from '../../../tui/src/screens/review.js';
import { sourceScreen } from '../../../tui/src/screens/source.js';

/** Settings that open every field a setting has: the Auth0 and mapping files, the roles, a sync's limits. */
const settings = MigrationSettingsSchema.parse({
  file: 'users.ndjson',
  format: 'ndjson',
  auth0PasswordFile: 'passwords.ndjson',
  mapping: 'mapping.txt',
  hashConfig: 'hash-config.json',
  rolesFrom: 'roles',
  roleMap: ['admin=owner'],
  rolesFile: 'roles.json',
  maxRemovals: '10',
  minOverlap: '40',
});
const state: AppState = { ...initialAppState({ settings, invocation: 'core-migrate' }), command: 'sync' };

function settingFields(): FieldSpec[] {
  return [connectScreen, sourceScreen, hashesScreen, identityScreen, reviewScreen].flatMap((screen) =>
    screen.fields({ state, dispatch: () => undefined }).filter((field) => field.setting !== undefined && field.id === field.setting),
  );
}

describe("the app's fields take their words from the settings table", () => {
  it('each field of a setting is labelled as the table names it (the name its sentences use)', () => {
    const fields = settingFields();
    expect(fields.map((field) => field.id)).toEqual(
      expect.arrayContaining(['file', 'core', 'tenant', 'apiKeyFile', 'existing', 'deleted', 'verifyCredentials']),
    );
    for (const field of fields) if (field.setting !== undefined) expect(field.label, field.id).toBe(settingName(field.setting, 'app'));
  });

  it("each choice of a setting offers the table's choices, as its flag does", () => {
    for (const field of settingFields()) {
      if (field.kind !== 'choice' || field.setting === undefined) continue;
      const kind = settingFlag(field.setting).kind;
      if (kind.type !== 'choice') continue;
      // The format's field also offers 'auto' (detect it), which the flag expresses by its absence.
      expect(
        field.choices.filter((choice) => choice !== 'auto'),
        field.id,
      ).toEqual([...kind.choices]);
    }
  });
});
