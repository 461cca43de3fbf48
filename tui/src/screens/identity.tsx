import { Box, Text } from 'ink';
import { describePlanRoles, loginTimeFamilies, loginTimeOldSystems, type PlanSummary } from 'core-client';
import { DisabledPolicySchema, EmailLinkPolicySchema, ExistingPolicySchema } from 'core-client/settings';
import { FieldList } from '../components/field-list.js';
import { formatCount } from '../components/numbers.js';
import { Table, type TableRow } from '../components/table.js';
import { Tone } from '../components/theme.js';
import { wrapText } from '../components/wrap.js';
import type { Draft } from '../app/draft.js';
import { planCurrent } from '../app/plan-status.js';
import { type BodyProps, type FieldSpec, type FieldsContext, type ScreenSpec, settingField } from '../app/screen.js';
import type { AppState } from '../app/state.js';

type Toggle = 'keepIds' | 'verifyEmails' | 'metadata' | 'passwordless' | 'roles' | 'rolesUpdate';

function toggle(state: AppState, key: Toggle, yes: string, no: string): FieldSpec {
  return {
    ...settingField(key),
    kind: 'choice',
    value: state.draft[key] ? 'yes' : 'no',
    choices: ['yes', 'no'],
    describe: (choice) => (choice === 'yes' ? `yes: ${yes}` : `no: ${no}`),
    set: (value) => ({ type: 'draft', patch: { [key]: value === 'yes' } as Partial<Draft> }),
  };
}

function fields({ state }: FieldsContext): FieldSpec[] {
  return [
    toggle(state, 'keepIds', "each user's core id maps to its old id", 'users get new ids'),
    toggle(state, 'verifyEmails', 'emails the source verified stay verified', 'password users start unverified'),
    toggle(state, 'metadata', 'name, photo, times, claims go to the metadata', 'left out'),
    {
      ...settingField('disabled'),
      kind: 'choice',
      value: state.draft.disabled,
      choices: DisabledPolicySchema.options,
      describe: (choice) => `${choice}: ${disabledWords(choice === 'import' ? 'import' : 'skip', state.command)}`,
      set: (value) => ({ type: 'draft', patch: { disabled: DisabledPolicySchema.parse(value) } }),
    },
    {
      ...settingField('existing'),
      kind: 'choice',
      value: state.draft.existing,
      choices: ExistingPolicySchema.options,
      describe: (choice) => (choice === 'skip' ? 'skip: left untouched, reported' : 'replace: their hash is REPLACED'),
      set: (value) => ({ type: 'draft', patch: { existing: ExistingPolicySchema.parse(value) } }),
    },
    ...passwordlessFields(state),
    ...roleFields(state),
  ];
}

/** Phone and email-link users (issue 27): passwordless users of the core, or left out for a reset. */
function passwordlessFields(state: AppState): FieldSpec[] {
  const { draft } = state;
  const list: FieldSpec[] = [toggle(state, 'passwordless', 'phone and email-link users become passwordless users', 'they are left out, listed for a reset')];
  if (!draft.passwordless) return list;
  const failure = state.plan?.failure;
  list.push({
    ...settingField('emailLink'),
    kind: 'choice',
    value: draft.emailLink,
    choices: EmailLinkPolicySchema.options,
    describe: (choice) =>
      choice === 'reset'
        ? 'reset: users with only an email are refused, listed for a reset'
        : 'passwordless: users with only an email sign in by a code or link',
    set: (value) => ({ type: 'draft', patch: { emailLink: EmailLinkPolicySchema.parse(value) } }),
  });
  // The region matters to files with phone users: it shows when the plan found some, or a region is set.
  if (draft.defaultRegion.trim() === '' && !hasPhoneUsers(state.plan?.counted?.summary) && failure?.setting !== 'defaultRegion') return list;
  list.push({
    ...settingField('defaultRegion'),
    kind: 'text',
    value: draft.defaultRegion,
    placeholder: 'e.g. GB: the country of numbers written without +code (else refused)',
    problem: state.fieldProblems['defaultRegion'] ?? (failure?.setting === 'defaultRegion' ? failure.message : undefined),
    set: (value) => ({ type: 'draft', patch: { defaultRegion: value } }),
  });
  return list;
}

function hasPhoneUsers(summary: PlanSummary | undefined): boolean {
  if (summary === undefined) return false;
  return (
    summary.passwordlessByLogin.phone > 0 ||
    summary.rejectionsByCode.some((group) => group.code === 'invalidPhoneNumber' || group.code === 'duplicatePhoneNumber')
  );
}

/** The roles fields (issue 21): the path is offered from what the plan found, never filled in by itself. */
function roleFields(state: AppState): FieldSpec[] {
  const { draft } = state;
  const found = state.plan?.counted?.summary.roles.found ?? [];
  const list: FieldSpec[] = [toggle(state, 'roles', 'users get their roles of the old system', 'no role is created or given')];
  if (!draft.roles) return list;
  list.push({
    ...settingField('rolesFrom'),
    kind: 'text',
    value: draft.rolesFrom,
    placeholder: found.length > 0 ? `e.g. ${found.map((place) => place.path).join(' or ')}` : 'e.g. customClaims.roles, appMetadata.roles, roles',
    problem: state.fieldProblems['rolesFrom'],
    set: (value) => ({ type: 'draft', patch: { rolesFrom: value } }),
  });
  if (draft.rolesFrom.trim() === '' && draft.roleMap === '' && draft.rolesFile === '') return list;
  list.push(
    {
      ...settingField('roleMap'),
      kind: 'text',
      value: draft.roleMap,
      placeholder: 'old=new, separated by commas (old= leaves a role out)',
      problem: state.fieldProblems['roleMap'],
      set: (value) => ({ type: 'draft', patch: { roleMap: value } }),
    },
    {
      ...settingField('rolesFile'),
      kind: 'path',
      value: draft.rolesFile,
      placeholder: 'optional: JSON of role -> permissions',
      problem: state.fieldProblems['rolesFile'],
      set: (value) => ({ type: 'draft', patch: { rolesFile: value } }),
    },
    toggle(state, 'rolesUpdate', "a role on the core gets the file's missing permissions", 'a role on the core is left as it is, reported'),
  );
  return list;
}

/** What the plan found of roles, and what the push gives, as core-client words it: the lines shown under the table. */
function rolesFoundLines(state: AppState): { text: string; muted: boolean }[] {
  const summary = state.plan?.counted?.summary;
  if (summary === undefined || !planCurrent(state)) return [];
  const lines = describePlanRoles(summary.roles);
  if (lines.length === 0) return [{ text: 'No roles found in the records.', muted: true }];
  return [{ text: 'Roles', muted: false }, ...lines.map((line) => ({ text: `  ${line}`, muted: false }))];
}

/** What a run does with disabled accounts: a sync also takes out of the core those the migration created. */
function disabledWords(policy: AppState['draft']['disabled'], command: AppState['command']): string {
  if (policy === 'import') return command === 'sync' ? 'imported or updated, disabled: true in metadata' : 'imported, with disabled: true in their metadata';
  return command === 'sync' ? 'removed if the migration created them, else left out' : 'left out, reported';
}

/** In the order of the fields above (a short screen cuts the last rows), then what has no field. */
function identityRows(state: AppState): TableRow[] {
  const summary = state.plan?.counted?.summary;
  if (summary === undefined) return [];
  const { identity } = summary;
  return [
    { label: 'carry an old id', value: identity.keepsSourceId, note: state.draft.keepIds ? 'mapped after creation' : 'not mapped' },
    { label: 'verified emails', value: identity.verifiedEmails, note: state.draft.verifyEmails ? 'verified in the core' : 'left unverified' },
    { label: 'with metadata', value: identity.withMetadata, note: state.draft.metadata ? 'written to the metadata' : 'left out' },
    {
      label: 'disabled',
      value: identity.disabledSkipped + identity.disabledImported,
      note: disabledWords(state.draft.disabled, state.command),
      keep: identity.disabledSkipped + identity.disabledImported > 0,
    },
    { label: 'separate accounts', value: identity.separateAccounts, note: 'a linked provider or phone login becomes its own user' },
    ...passwordlessRows(summary),
    ...parkedRows(summary),
  ];
}

/** The users parked for their first sign-in: created then, with what a pushed user keeps; how each will be checked. */
function parkedRows(summary: PlanSummary): TableRow[] {
  const parked = summary.loginTime?.parked ?? 0;
  if (parked === 0) return [];
  const byHash = loginTimeFamilies(summary).reduce((sum, family) => sum + family.count, 0);
  const checks = [
    ...loginTimeOldSystems(summary).map((system) => `${formatCount(system.count)} asked of ${system.label}`),
    ...(byHash > 0 ? [`${formatCount(byHash)} by their legacy hash`] : []),
  ];
  return [{ label: 'at first sign-in', value: parked, note: `parked, created then: ${checks.join(', ')}`, keep: true }];
}

/** What becomes of the phone and email-link users of this file, and of those the plan refused. */
function passwordlessRows(summary: PlanSummary): TableRow[] {
  const refused = (code: string): number => summary.rejectionsByCode.find((group) => group.code === code)?.count ?? 0;
  // Rows at 0 are left out: most files have no phone users, and the table shares the screen with the fields.
  const rows: TableRow[] = [];
  const { phone, email } = summary.passwordlessByLogin;
  // They decide the passwordless fields above (and a default region): kept in view when the table is cut.
  if (phone > 0) rows.push({ label: 'phone users', value: phone, note: 'passwordless users: a code by SMS, number in E.164', keep: true });
  if (email > 0) rows.push({ label: 'email-link users', value: email, note: 'passwordless users: a code or link by email', keep: true });
  const leftOut = refused('passwordlessLeftOut');
  if (leftOut > 0) rows.push({ label: 'passwordless left out', value: leftOut, note: 'listed in the report for a reset', tone: 'warning', keep: true });
  const numbers = refused('invalidPhoneNumber') + refused('duplicatePhoneNumber');
  if (numbers > 0)
    rows.push({
      label: 'numbers refused',
      value: numbers,
      note: 'unreadable or duplicate: a national number needs the default region',
      tone: 'warning',
      keep: true,
    });
  return rows;
}

/** What the core lacks of the identity steps turned on, in one sentence (or nothing). */
function missingSentence(state: AppState): string | undefined {
  if (state.preflight.state !== 'done' || state.preflight.value.support === undefined) return undefined;
  const support = state.preflight.value.support;
  const lacks = [
    ...(state.draft.keepIds && !support.mapping ? ['id mapping'] : []),
    ...(state.draft.verifyEmails && !support.verification ? ['email verification'] : []),
    ...(state.draft.metadata && !support.metadata ? ['user metadata'] : []),
    ...(state.draft.existing === 'skip' && !support.lookup ? ['user lookup'] : []),
    ...(state.draft.roles && state.draft.rolesFrom.trim() !== '' && !support.roles ? ['user roles'] : []),
  ];
  return lacks.length === 0 ? undefined : `! The core has no ${lacks.join(', ')}: turn those off here, or the push stops before sending.`;
}

/**
 * The fields, then the plan's counts in exactly the rows left: what the core lacks first, then the table (its rows
 * that decide a field kept in view), then the roles found if they still fit.
 */
function Body({ state, fields: list, columns, rows }: BodyProps) {
  const table = identityRows(state);
  const missing = missingSentence(state);
  const missingLines = missing === undefined ? [] : wrapText(missing, columns);
  const roles = rolesFoundLines(state);
  // The intro line, the two gaps and the fields take their rows first.
  const room = Math.max(0, rows - 3 - list.length - missingLines.length);
  const tableNeed = 1 + table.length;
  const tableKept = 2 + table.filter((row) => row.keep === true).length;
  const tableRows = Math.min(tableNeed, Math.max(room - roles.length, tableKept));
  const rolesShown = room - tableRows >= roles.length ? roles : [];
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">What a migrated user keeps of who they were.</Text>
      <Box marginTop={1}>
        <FieldList fields={list} focus={state.focus.identity} editing cursorFromEnd={0} columns={columns} maxRows={list.length} />
      </Box>
      <Box marginTop={1} flexDirection="column">
        {table.length === 0 || !planCurrent(state) ? (
          <Tone tone="muted">The plan's counts show here once the file is read.</Tone>
        ) : (
          <Table title="In this file" rows={table} columns={columns} maxRows={tableRows} />
        )}
        {rolesShown.map((line) =>
          line.muted ? (
            <Tone key={line.text} tone="muted">
              {line.text}
            </Tone>
          ) : (
            <Text key={line.text} wrap="truncate-end">
              {line.text}
            </Text>
          ),
        )}
        {missingLines.map((line) => (
          <Tone key={line} tone="warning">
            {line}
          </Tone>
        ))}
      </Box>
    </Box>
  );
}

export const identityScreen: ScreenSpec = {
  id: 'identity',
  title: 'Identity',
  fields,
  enter: ({ dispatch }) => dispatch({ type: 'goTo', screen: 'review' }),
  back: ({ dispatch }) => dispatch({ type: 'goTo', screen: 'hashes' }),
  hints: () => [
    ['Enter', 'continue'],
    ['←→', 'change'],
    ['↑↓', 'field'],
    ['?', 'help'],
    ['Esc', 'back'],
  ],
  help: [
    'What each migrated user keeps. Old ids: the core id of each created user is mapped to its id in the old system,',
    "so an application's references keep working. Verified emails stay verified. The profile (display name, photo,",
    'sign-up and last sign-in times, phone, custom claims, Auth0 metadata) goes to the user metadata.',
    'Disabled accounts are left out by default; imported, they carry disabled: true in their metadata.',
    'A password user already in the core is left untouched by default (skip); replace overwrites its hash.',
    'Phone users (Firebase phone auth, Auth0 sms, a mapped phoneNumber) and email-link users (an email and nothing else,',
    "Auth0 email) become the core's passwordless users: no message is sent. Numbers are written in E.164; one without a",
    'country code is read in the default phone region (e.g. GB), or refused. A phone login beside a password becomes a',
    'separate user, as a linked account does. Email-link users: reset refuses them; passwordless users: no leaves all out.',
    'Roles: the plan lists where the records keep role-like values (custom claims, app metadata, a roles field) with',
    'counts; name one as the roles path to give them. Renames take old=new (old= leaves a role out). A permissions',
    'file (JSON: role -> permissions) gives each role its permissions; roles outside it are reported, not given.',
    'Roles are created once before the first user; one already on the core is reported, not changed, unless you',
    'update role permissions. A rollback removes the roles the migration created once no user has them.',
    'Users parked in a login-time store (Hashes) are created at their first sign-in, checked as their row says.',
  ],
  Body,
};
