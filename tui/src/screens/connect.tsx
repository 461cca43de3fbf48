import { Box, Text } from 'ink';
import { featureLabels, identityFeatures, Secret } from 'core-client';
import { printable } from 'core-client/printable';
import { FieldList } from '../components/field-list.js';
import { Tone } from '../components/theme.js';
import { type BodyProps, type FieldSpec, type FieldsContext, type ScreenSpec, settingField } from '../app/screen.js';
import type { AppState } from '../app/state.js';

const noStack = '(none: type the core below)';
const stepLabels = {
  reachable: 'core reachable',
  keyAccepted: 'api-key accepted',
  tenantExists: 'tenant exists',
  scryptName: 'scrypt name',
} as const;

function fields({ state }: FieldsContext): FieldSpec[] {
  const { draft, stacks } = state;
  // The key the connection uses, in its order: the api-key file, then the key here (CORE_API_KEY or typed), then the stack.
  const keyNote =
    draft.apiKeyFile.trim() !== ''
      ? state.apiKey.isEmpty
        ? 'read from the API key file'
        : 'not used: the API key file comes first'
      : !state.apiKey.isEmpty
        ? state.apiKeyFromEnvironment
          ? 'from CORE_API_KEY'
          : ''
        : draft.stack === ''
          ? 'type it, or set CORE_API_KEY'
          : 'taken from the stack';
  const stackField: FieldSpec =
    stacks.state === 'listed'
      ? {
          ...settingField('stack'),
          kind: 'choice',
          value: draft.stack === '' ? noStack : draft.stack,
          choices: [noStack, ...stacks.names.filter((name) => name !== draft.stack), ...(draft.stack === '' ? [] : [draft.stack])].sort((a, b) =>
            a === noStack ? -1 : b === noStack ? 1 : a.localeCompare(b),
          ),
          set: (value) => ({ type: 'draft', patch: { stack: value === noStack ? '' : value } }),
        }
      : {
          ...settingField('stack'),
          kind: 'text',
          value: draft.stack,
          placeholder: stacks.state === 'unavailable' ? stacks.reason : 'listing stacks…',
          set: (value) => ({ type: 'draft', patch: { stack: value } }),
        };
  return [
    stackField,
    {
      ...settingField('core'),
      kind: 'text',
      value: draft.core,
      placeholder: draft.stack === '' ? 'http://127.0.0.1:3567' : "(the stack's coreUrl)",
      note: draft.moreCores.length === 0 ? undefined : `and ${draft.moreCores.length} more core(s)`,
      set: (value) => ({ type: 'draft', patch: { core: value } }),
    },
    {
      ...settingField('tenant'),
      kind: 'text',
      value: draft.tenant,
      placeholder: 'public',
      set: (value) => ({ type: 'draft', patch: { tenant: value } }),
    },
    {
      ...settingField('app'),
      kind: 'text',
      value: draft.app,
      placeholder: 'public',
      set: (value) => ({ type: 'draft', patch: { app: value } }),
    },
    {
      id: 'apiKey',
      kind: 'masked',
      label: 'API key',
      value: state.apiKey,
      note: keyNote,
      set: (value) => ({ type: 'form', patch: { apiKey: new Secret(value) } }),
    },
    {
      ...settingField('apiKeyFile'),
      kind: 'path',
      value: draft.apiKeyFile,
      placeholder: 'optional: a file holding the key',
      problem: state.fieldProblems['apiKeyFile'],
      set: (value) => ({ type: 'draft', patch: { apiKeyFile: value } }),
    },
    {
      ...settingField('caFile'),
      kind: 'path',
      value: draft.caFile,
      placeholder: 'optional: for https://, the certificate (PEM) of its authority',
      problem: state.fieldProblems['caFile'],
      set: (value) => ({ type: 'draft', patch: { caFile: value } }),
    },
  ];
}

function passed(state: AppState): boolean {
  return state.preflight.state === 'done' && state.preflight.value.report.ok;
}

function Preflight({ state, columns }: { state: AppState; columns: number }) {
  const { preflight } = state;
  if (preflight.state === 'idle')
    return <Tone tone="muted">Enter runs the pre-flight: /hello, /apiversion, the tenant and the scrypt variant's name; nothing is written.</Tone>;
  if (preflight.state === 'running') return <Text>Checking the core…</Text>;
  if (preflight.state === 'failed') {
    return (
      <Text wrap="wrap">
        <Tone tone="error">{`✗ ${preflight.message}`}</Tone>
      </Text>
    );
  }
  const { report, support, sources, signerKeyConfigured } = preflight.value;
  return (
    <Box flexDirection="column" width={columns}>
      <Text wrap="truncate-end">
        {report.steps.map((step) => (
          <Text key={step.name}>
            <Tone tone={step.status === 'ok' ? 'ok' : step.status === 'failed' ? 'error' : 'muted'}>
              {step.status === 'ok' ? '✓ ' : step.status === 'failed' ? '✗ ' : '- '}
            </Tone>
            {`${stepLabels[step.name]}   `}
          </Text>
        ))}
      </Text>
      <Text wrap="truncate-end">
        {printable(`${report.target}${report.roundTripMs === undefined ? '' : ` · round trip ${report.roundTripMs.toFixed(1)} ms`} · ${sources}`)}
      </Text>
      {report.versions === undefined ? null : <Text wrap="truncate-end">{printable(`API versions: ${report.versions.join(', ')}`)}</Text>}
      {support === undefined ? null : (
        <Text wrap="truncate-end">
          {'Identity: '}
          {identityFeatures.map((feature) => (
            <Text key={feature}>
              <Tone tone={support[feature] ? 'ok' : 'warning'}>{support[feature] ? '✓ ' : '✗ '}</Tone>
              {`${featureLabels[feature].replace(/ \(.*\)$/, '')}  `}
            </Text>
          ))}
        </Text>
      )}
      {signerKeyConfigured === false ? <Tone tone="warning">! The stack sets no signer key: vendor_scrypt users cannot be imported.</Tone> : null}
      {report.failure === undefined ? null : (
        <Text wrap="wrap">
          <Tone tone="error">{report.failure.sentence}</Tone>
        </Text>
      )}
    </Box>
  );
}

function Body({ state, fields: list, columns, rows }: BodyProps) {
  const intro = columns >= 70 ? 'Where is the core? Choose a Pulumi stack, or type its URL, tenant and app.' : 'Where is the core?';
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">{intro}</Text>
      <Box marginTop={1}>
        <FieldList
          fields={list}
          focus={state.focus.connect}
          editing
          cursorFromEnd={state.cursorFromEnd}
          completion={state.completion?.text}
          columns={columns}
          maxRows={Math.max(3, rows - 8)}
        />
      </Box>
      <Box marginTop={1}>
        <Preflight state={state} columns={columns} />
      </Box>
    </Box>
  );
}

export const connectScreen: ScreenSpec = {
  id: 'connect',
  title: 'Connect',
  fields,
  enter: ({ state, dispatch, commands }) => {
    if (passed(state)) dispatch({ type: 'goTo', screen: 'source' });
    else if (state.preflight.state !== 'running') commands.checkConnection(true);
    else dispatch({ type: 'preflightStarted', advance: true });
  },
  back: ({ commands }) => commands.quit(),
  hints: (state) => [
    ['Enter', passed(state) ? 'continue' : 'check the core'],
    ['↑↓', 'field'],
    ['?', 'help'],
    ['Esc', 'quit'],
  ],
  help: [
    'Where the users go. Pick a Pulumi stack (its coreUrl and api-key are read with the pulumi CLI), or type the',
    "core's URL; tenant and app default to public. The api-key is masked; it comes from CORE_API_KEY, an api-key",
    'file, the stack, or what you type here, and is never written anywhere.',
    "Enter runs the pre-flight (reachable, key accepted, tenant exists, the scrypt variant's name, identity features) and moves on when it passes.",
  ],
  Body,
};
