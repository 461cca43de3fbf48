import { Box, Text } from 'ink';
import { FieldList } from '../components/field-list.js';
import { Table, type TableRow } from '../components/table.js';
import { Tone } from '../components/theme.js';
import type { Draft } from '../app/draft.js';
import { planCurrent } from '../app/plan-status.js';
import type { BodyProps, FieldSpec, FieldsContext, ScreenSpec } from '../app/screen.js';
import type { AppState } from '../app/state.js';

type Toggle = 'keepIds' | 'verifyEmails' | 'metadata';

function toggle(state: AppState, key: Toggle, label: string, yes: string, no: string): FieldSpec {
  return {
    id: key,
    kind: 'choice',
    label,
    setting: key,
    value: state.draft[key] ? 'yes' : 'no',
    choices: ['yes', 'no'],
    describe: (choice) => (choice === 'yes' ? `yes: ${yes}` : `no: ${no}`),
    set: (value) => ({ type: 'draft', patch: { [key]: value === 'yes' } as Partial<Draft> }),
  };
}

function fields({ state }: FieldsContext): FieldSpec[] {
  return [
    toggle(state, 'keepIds', 'keep old ids', "each user's core id maps to its old id", 'users get new ids'),
    toggle(state, 'verifyEmails', 'verify emails', 'emails the source verified stay verified', 'password users start unverified'),
    toggle(state, 'metadata', 'profile metadata', 'name, photo, times, claims go to the metadata', 'left out'),
    {
      id: 'disabled',
      kind: 'choice',
      label: 'disabled accounts',
      setting: 'disabled',
      value: state.draft.disabled,
      choices: ['skip', 'import'],
      describe: (choice) => (choice === 'skip' ? 'skip: left out and reported' : 'import: with disabled: true in their metadata'),
      set: (value) => ({ type: 'draft', patch: { disabled: value as Draft['disabled'] } }),
    },
    {
      id: 'existing',
      kind: 'choice',
      label: 'already in the core',
      setting: 'existing',
      value: state.draft.existing,
      choices: ['skip', 'replace'],
      describe: (choice) => (choice === 'skip' ? 'skip: left untouched, reported' : 'replace: their hash is REPLACED'),
      set: (value) => ({ type: 'draft', patch: { existing: value as Draft['existing'] } }),
    },
  ];
}

function identityRows(state: AppState): TableRow[] {
  const summary = state.plan?.counted?.summary;
  if (summary === undefined) return [];
  const { identity } = summary;
  return [
    { label: 'carry an old id', value: identity.keepsSourceId, note: state.draft.keepIds ? 'mapped after creation' : 'not mapped' },
    { label: 'verified emails', value: identity.verifiedEmails, note: state.draft.verifyEmails ? 'verified in the core' : 'left unverified' },
    { label: 'with a profile', value: identity.withProfile, note: state.draft.metadata ? 'written to the metadata' : 'left out' },
    { label: 'separate accounts', value: identity.separateAccounts, note: 'a linked provider becomes its own user' },
    {
      label: 'disabled',
      value: identity.disabledSkipped + identity.disabledImported,
      note: state.draft.disabled === 'skip' ? 'left out, reported' : 'imported, marked disabled',
    },
  ];
}

function Missing({ state }: { state: AppState }) {
  if (state.preflight.state !== 'done' || state.preflight.value.support === undefined) return null;
  const support = state.preflight.value.support;
  const lacks = [
    ...(state.draft.keepIds && !support.mapping ? ['id mapping'] : []),
    ...(state.draft.verifyEmails && !support.verification ? ['email verification'] : []),
    ...(state.draft.metadata && !support.metadata ? ['user metadata'] : []),
    ...(state.draft.existing === 'skip' && !support.lookup ? ['user lookup'] : []),
  ];
  if (lacks.length === 0) return null;
  return (
    <Text wrap="wrap">
      <Tone tone="warning">{`! The core has no ${lacks.join(', ')}: turn those off here, or the push stops before sending.`}</Tone>
    </Text>
  );
}

function Body({ state, fields: list, columns, rows }: BodyProps) {
  const table = identityRows(state);
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
          <Table title="In this file" rows={table} columns={columns} maxRows={Math.max(2, rows - list.length - 5)} />
        )}
        <Missing state={state} />
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
  ],
  Body,
};
