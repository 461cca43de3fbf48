import { Box, Text } from 'ink';
import { loginTimeFamilies, loginTimeOldSystems, prefixRuleFromOption, signerKeyReminder, type PlanSummary, Secret } from 'core-client';
import { describeProblem } from 'core-client/settings';
import { FieldList } from '../components/field-list.js';
import { Table, type TableRow } from '../components/table.js';
import { Tone } from '../components/theme.js';
import { readHashConfigPaste } from '../app/hash-paste.js';
import { planCurrent, typedHashConfig } from '../app/plan-status.js';
import { type BodyProps, type FieldSpec, type FieldsContext, type ScreenContext, type ScreenSpec, settingField } from '../app/screen.js';
import type { AppState } from '../app/state.js';

const familyFates = {
  bcrypt: 'imported as the standard $2a$ string',
  argon2: 'imported as the standard encoded string',
  vendor_scrypt: 'sent as $f_scrypt$… with vendor_scrypt',
} as const;

export function familyRows(summary: PlanSummary): TableRow[] {
  const rows: TableRow[] = (Object.keys(familyFates) as (keyof typeof familyFates)[])
    .filter((family) => summary.byFamily[family] > 0)
    .map((family) => ({ label: family, value: summary.byFamily[family], note: familyFates[family] }));
  // With a login-time store, the families the core cannot import wait there: core-migrate checks them itself.
  for (const parked of loginTimeFamilies(summary))
    rows.push({ label: parked.label, value: parked.count, note: 'parked: core-migrate checks at first sign-in' });
  // Password users without a usable hash, parked for the old system (--verify-with) to say whether the password is right.
  for (const parked of loginTimeOldSystems(summary))
    rows.push({ label: 'no usable hash', value: parked.count, note: `parked: asked of ${parked.label} at first sign-in` });
  for (const group of summary.rejectionsByCode.filter((entry) => entry.code === 'unusableHash' || entry.code === 'unsupportedHashFamily')) {
    rows.push({
      label: group.code === 'unusableHash' ? 'refused: unusable' : 'refused: unsupported',
      value: group.count,
      note: group.examples[0]?.reason ?? '',
      tone: 'warning',
    });
  }
  const wrappers = Object.entries(summary.strippedByRule);
  if (wrappers.length > 0)
    rows.push({
      label: 'wrappers stripped',
      value: wrappers.reduce((sum, [, count]) => sum + count, 0),
      note: wrappers.map(([rule, count]) => `${rule} ${count}`).join(', '),
    });
  if (rows.length === 0) rows.push({ label: 'none', value: 0, note: 'no password hashes in this file' });
  return rows;
}

function usesFile(state: AppState): boolean {
  return state.draft.hashConfig.trim() !== '';
}

function fields({ state }: FieldsContext): FieldSpec[] {
  const { hash, draft } = state;
  const typed = typedHashConfig(hash);
  const list: FieldSpec[] = [
    {
      ...settingField('hashConfig'),
      kind: 'path',
      value: draft.hashConfig,
      placeholder: 'optional: or paste the block, or fill the fields',
      problem: state.fieldProblems['hashConfig'],
      set: (value) => ({ type: 'draft', patch: { hashConfig: value } }),
    },
  ];
  if (!usesFile(state)) {
    list.push(
      {
        id: 'paste',
        kind: 'masked',
        multiline: true,
        label: 'paste block',
        value: hash.pasted,
        placeholder: 'paste the hash_config { … } block here',
        ...(hash.pasteFailed ? { problem: hash.pasteNote } : { note: hash.pasteNote }),
        set: (value) => ({ type: 'hash', patch: readHashConfigPaste(value) }),
      },
      {
        id: 'memCost',
        kind: 'text',
        label: 'mem_cost',
        value: hash.memCost,
        placeholder: '1–14',
        set: (value) => ({ type: 'hash', patch: { memCost: value } }),
      },
      { id: 'rounds', kind: 'text', label: 'rounds', value: hash.rounds, placeholder: '1–8', set: (value) => ({ type: 'hash', patch: { rounds: value } }) },
      {
        id: 'saltSeparator',
        kind: 'text',
        label: 'salt separator',
        value: hash.saltSeparator,
        placeholder: 'base64, e.g. Bw==',
        problem: typed.state === 'invalid' ? typed.sentence : undefined,
        set: (value) => ({ type: 'hash', patch: { saltSeparator: value } }),
      },
      {
        id: 'signerKey',
        kind: 'masked',
        label: 'signer key',
        value: hash.signerKey,
        placeholder: 'base64 (checks known passwords; the core holds its own)',
        set: (value) => ({ type: 'hash', patch: { signerKey: new Secret(value) } }),
      },
    );
  }
  const newRule = state.newPrefix.trim() === '' ? undefined : prefixRuleFromOption(state.newPrefix.trim());
  list.push({
    id: 'newPrefix',
    kind: 'text',
    label: 'add prefix rule',
    setting: 'stripPrefix',
    value: state.newPrefix,
    placeholder: 'exact text, or re:<regex>; Enter adds it',
    problem: newRule instanceof Error ? describeProblem(newRule, 'app') : undefined,
    set: (value) => ({ type: 'form', patch: { newPrefix: value } }),
  });
  for (const [index, rule] of draft.stripPrefix.entries()) {
    list.push({
      id: `rule.${index}`,
      kind: 'action',
      label: `  rule ${index + 1}`,
      setting: 'stripPrefix',
      value: rule,
      note: 'Enter removes it',
      activate: ({ dispatch }) => dispatch({ type: 'draft', patch: { stripPrefix: draft.stripPrefix.filter((_, at) => at !== index) } }),
    });
  }
  list.push(
    {
      id: 'checkEmail',
      kind: 'text',
      label: 'check email',
      value: state.checkEmail,
      placeholder: 'a known account of the file',
      set: (value) => ({ type: 'form', patch: { checkEmail: value } }),
    },
    {
      id: 'checkPassword',
      kind: 'masked',
      label: 'its password',
      value: state.checkPassword,
      placeholder: 'Enter checks it locally',
      set: (value) => ({ type: 'form', patch: { checkPassword: new Secret(value) } }),
    },
    {
      ...settingField('loginTime'),
      kind: 'text',
      value: draft.loginTime,
      placeholder: 'optional: a SQLite file or postgresql:// URL; users of other families wait there',
      problem: state.fieldProblems['loginTime'],
      set: (value) => ({ type: 'draft', patch: { loginTime: value } }),
    },
    {
      ...settingField('verifyWith'),
      kind: 'path',
      value: draft.verifyWith,
      placeholder: 'optional, with the store: the old system asked for users without a hash (JSON)',
      problem: state.fieldProblems['verifyWith'],
      set: (value) => ({ type: 'draft', patch: { verifyWith: value } }),
    },
  );
  return list;
}

function Families({ state, columns, rows }: { state: AppState; columns: number; rows: number }) {
  const summary = state.plan?.counted?.summary;
  if (summary === undefined || !planCurrent(state)) {
    return <Text wrap="truncate-end">{state.plan?.failure === undefined ? 'Hash families: reading the plan…' : `✗ ${state.plan.failure.message}`}</Text>;
  }
  return <Table title="Hash families in the file" rows={familyRows(summary)} columns={columns} maxRows={rows} />;
}

function CheckVerdict({ state }: { state: AppState }) {
  const { check } = state;
  if (check.state === 'idle') return null;
  if (check.state === 'running') return <Text>checking the password…</Text>;
  if (check.state === 'failed') return <Tone tone="error">{`✗ ${check.message}`}</Tone>;
  // Wrapped, never cut: the sentence names the family and, for a parked user, who checks it.
  return (
    <Text wrap="wrap">
      <Tone tone={check.value.match ? 'ok' : 'error'}>{check.value.match ? '✓ ' : '✗ '}</Tone>
      {check.value.sentence}
    </Text>
  );
}

function Body({ state, fields: list, columns, rows }: BodyProps) {
  const scrypt = (state.plan?.counted?.summary.byFamily.vendor_scrypt ?? 0) > 0;
  const fieldRows = Math.min(list.length, Math.max(4, rows - 6));
  const tableRows = Math.max(2, rows - fieldRows - (scrypt ? 3 : 2));
  return (
    <Box flexDirection="column">
      <Families state={state} columns={columns} rows={tableRows} />
      {scrypt ? (
        <Text wrap="truncate-end">
          <Tone tone="warning">{`! ${signerKeyReminder()}`}</Tone>
        </Text>
      ) : null}
      <Box marginTop={1}>
        <FieldList
          fields={list}
          focus={state.focus.hashes}
          editing
          cursorFromEnd={state.cursorFromEnd}
          completion={state.completion?.text}
          columns={columns}
          maxRows={fieldRows}
        />
      </Box>
      <CheckVerdict state={state} />
    </Box>
  );
}

function focusedId(context: ScreenContext): string | undefined {
  return fields(context)[context.state.focus.hashes]?.id;
}

export const hashesScreen: ScreenSpec = {
  id: 'hashes',
  title: 'Hashes',
  fields,
  keys: (press, context) => {
    // Without the terminal's paste mode a multi-line block arrives as keys: its line breaks are part of it.
    if (press.key.return && focusedId(context) === 'paste' && !context.state.hash.pasted.isEmpty) {
      context.dispatch({ type: 'hash', patch: readHashConfigPaste(`${context.state.hash.pasted.reveal()}\n`) });
      return true;
    }
    return false;
  },
  enter: (context) => {
    const { state, dispatch, commands } = context;
    switch (focusedId(context)) {
      case 'newPrefix': {
        const option = state.newPrefix.trim();
        if (option === '' || prefixRuleFromOption(option) instanceof Error) return;
        dispatch({ type: 'draft', patch: { stripPrefix: [...state.draft.stripPrefix, option] } });
        dispatch({ type: 'form', patch: { newPrefix: '' } });
        return;
      }
      case 'checkEmail':
      case 'checkPassword':
        if (state.checkEmail.trim() !== '' && !state.checkPassword.isEmpty) commands.checkPassword();
        return;
      default:
        dispatch({ type: 'goTo', screen: 'identity' });
    }
  },
  back: ({ dispatch }) => dispatch({ type: 'goTo', screen: 'source' }),
  hints: () => [
    ['Enter', 'continue / add / check'],
    ['↑↓', 'field'],
    ['?', 'help'],
    ['Esc', 'back'],
  ],
  help: [
    'The password hashes the file holds, by family, and what becomes of each; the refused ones with an example.',
    "Vendor scrypt users need the provider's hashing parameters: name the hash_config file, paste the block (it is",
    'read at once; a block that does not parse says why on its line), or fill mem_cost, rounds and the separator.',
    'The signer key is only used here to check passwords: the core must hold the same one.',
    'Prefix rules strip a wrapper before each hash (exact text, or re:<regex>); Enter on a rule removes it.',
    'Check a known account: its email (→ takes the completion) and password, Enter: does it match as it will be imported?',
    'With a login-time store, the families the core cannot import are parked there, each on its own row: at their first',
    'sign-in login-migration serve checks the password against the legacy hash (as hash verify does) and creates the',
    'user. A known account of a parked user is checked the same way here.',
    'The old system to ask (a JSON file naming Firebase, Cognito, an OpenID token endpoint or an HTTP endpoint, see',
    'docs/login-time.md) parks password users without a usable hash too: their row says whom the service asks.',
  ],
  Body,
};
