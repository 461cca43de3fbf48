import { Box, Text, useInput } from 'ink';
import { Secret } from 'core-client/secret';
import { ChoiceField, cycle } from '../components/choice.js';
import { FieldRow, TextField } from '../components/field.js';
import { cursorKeysHint, type KeyHint } from '../components/key-hints.js';
import { MaskedInput } from '../components/masked-input.js';
import { ScreenFrame } from '../components/screen-frame.js';
import { applyTextKey } from '../components/text-edit.js';
import { Tone } from '../components/theme.js';
import type { StacksState } from '../hooks/use-stacks.js';
import { PreflightLines } from './preflight-lines.js';
import { nextFocus, type ConnectForm, type Outcome, type PreflightView, type WalkAction, type WalkState } from './walk-state.js';

const textFields = [undefined, 'coreUrl', 'tenant', 'app'] as const;
const apiKeyField = 4;
const fieldCount = 5;
const noStack = '(none: type the core below)';

export interface ConnectScreenProps {
  state: WalkState;
  current: () => WalkState;
  stacks: StacksState;
  apiKeyFromEnvironment: boolean;
  dispatch: (action: WalkAction) => void;
  onCheck: () => void;
  onQuit: () => void;
}

export function ConnectScreen({ state, current, stacks, apiKeyFromEnvironment, dispatch, onCheck, onQuit }: ConnectScreenProps) {
  const form = state.connect;
  const preflight: Outcome<PreflightView> = state.preflight;
  const edit = (patch: Partial<ConnectForm>) => dispatch({ type: 'editConnect', patch });
  const stackOptions = [noStack, ...(stacks.state === 'listed' ? stacks.names : [])];

  useInput((input, key) => {
    const { connect, preflight: check } = current();
    if (key.escape) return onQuit();
    if (key.tab || key.downArrow) return edit({ focus: nextFocus(connect.focus, fieldCount, key.shift ? -1 : 1) });
    if (key.upArrow) return edit({ focus: nextFocus(connect.focus, fieldCount, -1) });
    if (connect.focus === 0 && (key.leftArrow || key.rightArrow)) {
      const chosen = cycle(stackOptions, connect.stack === '' ? noStack : connect.stack, key.leftArrow ? -1 : 1);
      return edit({ stack: chosen === noStack ? '' : chosen });
    }
    if (key.return) {
      if (check.state === 'done' && check.value.report.ok) return dispatch({ type: 'goTo', step: 'source' });
      if (check.state !== 'running') onCheck();
      return;
    }
    const field = textFields[connect.focus];
    if (field !== undefined) {
      const next = applyTextKey({ value: connect[field], cursorFromEnd: connect.cursorFromEnd }, input, key);
      if (next !== undefined) edit({ [field]: next.value, cursorFromEnd: next.cursorFromEnd });
    } else if (connect.focus === apiKeyField) {
      const next = applyTextKey({ value: connect.apiKey.reveal(), cursorFromEnd: 0 }, input, key, { masked: true });
      if (next !== undefined) edit({ apiKey: new Secret(next.value) });
    }
  });

  const passed = preflight.state === 'done' && preflight.value.report.ok;
  const keyNote = form.apiKey.isEmpty
    ? form.stack === ''
      ? 'type it, or set CORE_API_KEY'
      : 'taken from the stack'
    : apiKeyFromEnvironment
      ? 'from CORE_API_KEY'
      : '';
  const focusKeys: KeyHint[] = form.focus === 0 ? [['←→', 'stack']] : textFields[form.focus] === undefined ? [] : [cursorKeysHint];
  return (
    <ScreenFrame step="Connect" hints={[['Tab/↑↓', 'field'], ...focusKeys, ['Enter', passed ? 'continue' : 'check connection'], ['Esc', 'quit']]}>
      <Text>Where is the core? Choose a Pulumi stack, or type its URL, tenant and app.</Text>
      <Box flexDirection="column" marginTop={1}>
        <ChoiceField label="Pulumi stack" value={form.stack === '' ? noStack : form.stack} focus={form.focus === 0} />
        {stacks.state === 'unavailable' ? (
          <Box marginLeft={18}>
            <Text wrap="truncate-end">
              <Tone tone="muted">{stacks.reason}</Tone>
            </Text>
          </Box>
        ) : null}
        <TextField
          label="Core URL"
          value={form.coreUrl}
          focus={form.focus === 1}
          cursorFromEnd={form.cursorFromEnd}
          placeholder={form.stack === '' ? 'http://127.0.0.1:3567' : '(from the stack)'}
        />
        <TextField label="Tenant" value={form.tenant} focus={form.focus === 2} cursorFromEnd={form.cursorFromEnd} placeholder="public" />
        <TextField label="App" value={form.app} focus={form.focus === 3} cursorFromEnd={form.cursorFromEnd} placeholder="public" />
        <FieldRow label="API key" focus={form.focus === apiKeyField}>
          <MaskedInput value={form.apiKey} focus={form.focus === apiKeyField} />
          {keyNote === '' ? null : <Tone tone="muted">{`  ${keyNote}`}</Tone>}
        </FieldRow>
      </Box>
      <Box flexDirection="column" marginTop={1}>
        <PreflightLines preflight={preflight} />
      </Box>
    </ScreenFrame>
  );
}
