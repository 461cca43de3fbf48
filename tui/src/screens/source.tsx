import { Box, Text } from 'ink';
import { mappedFields, defaultFieldMapping, isSourceFormat, sourceFormats, type SourceFormat } from 'core-client';
import { DuplicatePolicySchema } from 'core-client/settings';
import { FieldList } from '../components/field-list.js';
import { formatCount } from '../components/numbers.js';
import { Tone } from '../components/theme.js';
import { type BodyProps, type FieldSpec, type FieldsContext, type ScreenSpec, settingField } from '../app/screen.js';
import type { AppState } from '../app/state.js';
import { planCurrent } from '../app/plan-status.js';

const genericFormats: readonly SourceFormat[] = ['ndjson', 'json-array', 'csv'];

/** The format the plan reads with: the one chosen, else the one detected. */
export function effectiveFormat(state: AppState): SourceFormat | undefined {
  if (state.draft.format !== 'auto') return state.draft.format;
  return state.detected.state === 'done' ? state.detected.value : undefined;
}

function providerIds(state: AppState): string[] {
  const found = Object.keys(state.plan?.counted?.summary.unmappedProviders ?? {});
  return [...new Set([...Object.keys(state.draft.providerMap), ...found])];
}

function fields({ state }: FieldsContext): FieldSpec[] {
  const { draft } = state;
  const format = effectiveFormat(state);
  const detected = state.detected.state === 'done' ? `detected: ${state.detected.value}` : state.detected.state === 'failed' ? 'not detected' : '';
  const list: FieldSpec[] = [
    {
      ...settingField('file'),
      kind: 'path',
      value: draft.file,
      placeholder: 'path to users.json, .ndjson, .csv (.gz too)',
      problem: state.fieldProblems['file'],
      set: (value) => ({ type: 'draft', patch: { file: value } }),
    },
    {
      ...settingField('format'),
      kind: 'choice',
      value: draft.format,
      choices: ['auto', ...sourceFormats],
      describe: (choice) => (choice === 'auto' ? `auto${detected === '' ? '' : ` (${detected})`}` : choice),
      problem: state.draft.format === 'auto' && state.detected.state === 'failed' ? state.detected.message : undefined,
      set: (value) => ({ type: 'draft', patch: { format: value === 'auto' || !isSourceFormat(value) ? 'auto' : value } }),
    },
  ];
  if (format === 'auth0' || draft.auth0PasswordFile !== '') {
    list.push({
      ...settingField('auth0PasswordFile'),
      kind: 'path',
      value: draft.auth0PasswordFile,
      placeholder: 'the password-hash export (optional)',
      problem: state.fieldProblems['auth0PasswordFile'],
      set: (value) => ({ type: 'draft', patch: { auth0PasswordFile: value } }),
    });
  }
  if ((format !== undefined && genericFormats.includes(format)) || draft.mapping !== '' || Object.keys(draft.map).length > 0) {
    list.push({
      ...settingField('mapping'),
      kind: 'path',
      value: draft.mapping,
      placeholder: 'optional: field = column lines, or pick below',
      problem: state.fieldProblems['mapping'],
      set: (value) => ({ type: 'draft', patch: { mapping: value } }),
    });
    for (const field of mappedFields) {
      const chosen = draft.map[field] ?? '';
      const fallback = `default (${defaultFieldMapping[field]})`;
      const set = (value: string) => ({ type: 'draft' as const, patch: { map: { ...draft.map, [field]: value === fallback ? '' : value } } });
      list.push(
        state.exportFields.length > 0
          ? {
              id: `map.${field}`,
              kind: 'choice',
              label: `  ${field}`,
              setting: 'map',
              value: chosen === '' ? fallback : chosen,
              choices: [fallback, ...state.exportFields, ...(chosen !== '' && !state.exportFields.includes(chosen) ? [chosen] : [])],
              set,
            }
          : { id: `map.${field}`, kind: 'text', label: `  ${field}`, setting: 'map', value: chosen, placeholder: defaultFieldMapping[field], set },
      );
    }
  }
  list.push({
    ...settingField('duplicates'),
    kind: 'choice',
    value: draft.duplicates,
    choices: DuplicatePolicySchema.options,
    describe: (choice) => (choice === 'first-wins' ? 'first wins (later ones are reported)' : 'last wins (reads the file twice)'),
    set: (value) => ({ type: 'draft', patch: { duplicates: DuplicatePolicySchema.parse(value) } }),
  });
  const unmapped = state.plan?.counted?.summary.unmappedProviders ?? {};
  for (const id of providerIds(state)) {
    const count = unmapped[id];
    list.push({
      id: `provider.${id}`,
      kind: 'text',
      label: `provider ${id}`,
      setting: 'providerMap',
      value: draft.providerMap[id] ?? '',
      placeholder: 'short name, e.g. acme',
      note: count === undefined ? 'mapped' : `${formatCount(count)} account(s) unmapped`,
      set: (value) => ({ type: 'draft', patch: { providerMap: { ...draft.providerMap, [id]: value } } }),
    });
  }
  return list;
}

function PlanStatus({ state }: { state: AppState }) {
  const { plan } = state;
  if (!state.planRequested || plan === undefined) return <Tone tone="muted">Enter reads the whole file once and counts the plan; nothing is sent.</Tone>;
  if (plan.failure !== undefined) {
    return (
      <Text wrap="wrap">
        <Tone tone="error">{`✗ ${plan.failure.message}`}</Tone>
      </Text>
    );
  }
  const counted = `${formatCount(plan.records)} records → ${formatCount(plan.operations)} operations`;
  if (plan.counted === undefined || !planCurrent(state)) return <Text>{`Reading the plan… ${counted}`}</Text>;
  const { summary } = plan.counted;
  const unmapped = Object.keys(summary.unmappedProviders).length;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Tone tone="ok">✓ </Tone>
        {`${counted}${summary.rejected > 0 ? `, ${formatCount(summary.rejected)} rejected (see Review)` : ''}`}
      </Text>
      {unmapped > 0 ? <Tone tone="warning">{`! ${unmapped} provider(s) have no short name: give each one above, or their accounts are refused.`}</Tone> : null}
    </Box>
  );
}

function Body({ state, fields: list, columns, rows }: BodyProps) {
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {columns >= 70 ? 'Which export holds the users? Firebase, Auth0, Cognito, NDJSON, JSON array, CSV.' : 'Which export holds the users?'}
      </Text>
      <Box marginTop={1}>
        <FieldList
          fields={list}
          focus={state.focus.source}
          editing
          cursorFromEnd={state.cursorFromEnd}
          completion={state.completion?.text}
          columns={columns}
          maxRows={Math.max(3, rows - 5)}
        />
      </Box>
      <Box marginTop={1}>
        <PlanStatus state={state} />
      </Box>
    </Box>
  );
}

export const sourceScreen: ScreenSpec = {
  id: 'source',
  title: 'Source',
  fields,
  enter: ({ state, dispatch, commands }) => {
    if (state.draft.file.trim() === '') return;
    if (planCurrent(state) && state.plan?.counted !== undefined && state.plan.failure === undefined) dispatch({ type: 'goTo', screen: 'hashes' });
    else commands.readPlan(true);
  },
  back: ({ dispatch }) => dispatch({ type: 'goTo', screen: 'connect' }),
  hints: () => [
    ['Enter', 'read the file'],
    ['↑↓', 'field'],
    ['→', 'complete path'],
    ['←→', 'choose'],
    ['?', 'help'],
    ['Esc', 'back'],
  ],
  help: [
    'Which file holds the users. The format is detected (←/→ forces one). An Auth0 user export takes its',
    'password-hash export beside it. A generic NDJSON/JSON/CSV export takes a field mapping: pick, for each field,',
    "the file's own column or key (or name a mapping file). Providers the plan cannot name get a field each.",
    'Enter reads the whole file once and counts the plan (nothing is sent), then moves on; later changes re-read it.',
    'In a path field, → at the end takes the grey completion.',
  ],
  Body,
};
