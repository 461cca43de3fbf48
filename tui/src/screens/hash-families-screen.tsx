import { Box, Text, useInput } from 'ink';
import { Secret } from 'core-client/secret';
import { prefixRuleFromOption } from 'core-client/hashes/prefix-rules';
import { CandidateLine } from '../components/candidate-line.js';
import { Clipped, clipToLines, wrappedLineCount } from '../components/clipped.js';
import { FieldRow, TextField } from '../components/field.js';
import { MaskedInput } from '../components/masked-input.js';
import { ScreenFrame } from '../components/screen-frame.js';
import { applyTextKey } from '../components/text-edit.js';
import { Tone } from '../components/theme.js';
import { hashConfigFromForm } from '../hooks/plan-request.js';
import { CheckLine, checkLineCount } from './check-line.js';
import { FamilyLines, familyLineCount } from './family-lines.js';
import { field, fieldCount, hashesHints, readPaste, secretFields, textFields } from './hash-fields.js';
import { nextFocus, type HashForm, type WalkAction, type WalkState } from './walk-state.js';

/** The screen's rows besides the family table and the notes: title, gaps, eight fields, the key hints. */
const fixedLines = 13;
const screenLines = 24;

export interface HashFamiliesScreenProps {
  state: WalkState;
  current: () => WalkState;
  planCurrent: boolean;
  emailCandidates: string[];
  dispatch: (action: WalkAction) => void;
  onCompleteEmail: () => void;
  onCheck: () => void;
}

export function HashFamiliesScreen({ state, current, planCurrent, emailCandidates, dispatch, onCompleteEmail, onCheck }: HashFamiliesScreenProps) {
  const form = state.hashes;
  const edit = (patch: Partial<HashForm>) => dispatch({ type: 'editHashes', patch });

  useInput((input, key) => {
    const { hashes } = current();
    if (key.escape) return dispatch({ type: 'back' });
    if (hashes.focus === field.email && key.tab && !key.shift) return onCompleteEmail();
    if (key.tab || key.downArrow || key.upArrow) return edit({ focus: nextFocus(hashes.focus, fieldCount, key.upArrow || key.shift ? -1 : 1) });
    if (hashes.focus === field.paste) {
      if (key.return && hashes.pasted.isEmpty) return dispatch({ type: 'goTo', step: 'review' });
      // A paste split by the terminal delivers its line breaks as Enter: inside a paste they are text.
      const next = key.return
        ? `${hashes.pasted.reveal()}\n`
        : applyTextKey({ value: hashes.pasted.reveal(), cursorFromEnd: 0 }, input, key, { multiline: true, masked: true })?.value;
      if (next !== undefined) edit(readPaste(next));
      return;
    }
    if (key.return) {
      if (hashes.focus === field.prefix) {
        const option = hashes.newPrefix.trim();
        if (option === '') return;
        const rule = prefixRuleFromOption(option);
        if (rule instanceof Error) return edit({ prefixNote: `✗ ${rule.message}` });
        return edit({ prefixRules: [...hashes.prefixRules, option], newPrefix: '', prefixNote: `added ${rule.name}` });
      }
      if (hashes.focus === field.email || hashes.focus === field.password) {
        if (hashes.checkEmail.trim() !== '' && !hashes.checkPassword.isEmpty) onCheck();
        return;
      }
      return dispatch({ type: 'goTo', step: 'review' });
    }
    const textField = textFields[hashes.focus];
    if (textField !== undefined) {
      const next = applyTextKey({ value: hashes[textField], cursorFromEnd: hashes.cursorFromEnd }, input, key);
      if (next !== undefined) edit({ [textField]: next.value, cursorFromEnd: next.cursorFromEnd });
      return;
    }
    const secretField = secretFields[hashes.focus];
    if (secretField !== undefined) {
      const next = applyTextKey({ value: hashes[secretField].reveal(), cursorFromEnd: 0 }, input, key, { masked: true });
      if (next !== undefined) edit({ [secretField]: new Secret(next.value) });
    }
  });

  const hashConfig = hashConfigFromForm(form);
  const plan = state.plan;
  const scryptUsers = (plan?.summary?.byFamily.vendor_scrypt ?? 0) > 0 || hashConfig.state !== 'absent';
  const stackSignerKey = state.preflight.state === 'done' ? state.preflight.value.core.signerKeyConfigured : undefined;
  const stackSays = stackSignerKey === undefined ? undefined : stackSignerKey ? 'The stack says the core has one.' : 'The stack says the core has NONE.';
  const invalid = hashConfig.state === 'invalid' ? clipToLines(`✗ ${hashConfig.sentence}`, 78, 2) : undefined;
  const suggesting = form.focus === field.email && emailCandidates.length > 1;
  // Every note shown takes rows from the family table: past 24 lines it collapses to its counts on one line.
  const noteLines =
    (invalid === undefined ? 0 : wrappedLineCount(invalid, 78)) +
    (scryptUsers ? (stackSays === undefined ? 1 : 2) : 0) +
    (suggesting ? 1 : 0) +
    checkLineCount(state.check);
  const compactFamilies = fixedLines + familyLineCount(plan, planCurrent) + noteLines > screenLines;
  return (
    <ScreenFrame step="Hashes" hints={hashesHints(form)}>
      <FamilyLines plan={plan} current={planCurrent} compact={compactFamilies} />
      <Box flexDirection="column" marginTop={1}>
        <FieldRow label="hash_config" focus={form.focus === field.paste}>
          <MaskedInput
            value={form.pasted}
            focus={form.focus === field.paste}
            placeholder={form.pasteNote || 'paste the hash_config { … } block, or fill the fields'}
          />
        </FieldRow>
        <TextField label="mem_cost" value={form.memCost} focus={form.focus === field.memCost} cursorFromEnd={form.cursorFromEnd} />
        <TextField label="rounds" value={form.rounds} focus={form.focus === field.rounds} cursorFromEnd={form.cursorFromEnd} />
        <TextField label="salt separator" value={form.saltSeparator} focus={form.focus === field.separator} cursorFromEnd={form.cursorFromEnd} />
        <FieldRow label="signer key" focus={form.focus === field.signerKey}>
          <MaskedInput value={form.signerKey} focus={form.focus === field.signerKey} />
        </FieldRow>
        {invalid === undefined ? null : (
          <Clipped lines={wrappedLineCount(invalid, 78)} marginLeft={2}>
            <Tone tone="error">{invalid}</Tone>
          </Clipped>
        )}
        {scryptUsers ? (
          <Box marginLeft={2} flexDirection="column">
            <Text>
              <Tone tone="warning">{'! '}</Tone>
              The core needs this same signer key (VENDOR_PASSWORD_HASHING_SIGNER_KEY).
            </Text>
            {stackSays === undefined ? null : <Text>{`  ${stackSays}`}</Text>}
          </Box>
        ) : null}
        <TextField
          label="add prefix"
          value={form.newPrefix}
          focus={form.focus === field.prefix}
          cursorFromEnd={form.cursorFromEnd}
          note={form.prefixNote}
          placeholder={form.prefixNote || (form.prefixRules.length > 0 ? `added: ${form.prefixRules.join(', ')}` : 'exact text, or re:<regex>')}
        />
        <TextField
          label="check email"
          value={form.checkEmail}
          focus={form.focus === field.email}
          cursorFromEnd={form.cursorFromEnd}
          placeholder="an account whose password you know"
        />
        {suggesting ? <CandidateLine candidates={emailCandidates} /> : null}
        <FieldRow label="its password" focus={form.focus === field.password}>
          <MaskedInput value={form.checkPassword} focus={form.focus === field.password} />
        </FieldRow>
        <CheckLine check={state.check} />
      </Box>
    </ScreenFrame>
  );
}
