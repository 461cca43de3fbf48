import { Box, Text, useInput } from 'ink';
import { Secret, parseHashConfig, prefixRuleFromOption } from 'core-client';
import { FieldRow, TextField } from '../components/field.js';
import { MaskedInput } from '../components/masked-input.js';
import { ScreenFrame } from '../components/screen-frame.js';
import { applyTextKey } from '../components/text-edit.js';
import { Tone } from '../components/theme.js';
import { hashConfigFromForm } from '../hooks/plan-request.js';
import { CheckLine } from './check-line.js';
import { FamilyLines } from './family-lines.js';
import { nextFocus, type HashForm, type WalkAction, type WalkState } from './walk-state.js';

const field = { paste: 0, memCost: 1, rounds: 2, separator: 3, signerKey: 4, prefix: 5, email: 6, password: 7 } as const;
const fieldCount = 8;
const textFields: Partial<Record<number, 'memCost' | 'rounds' | 'saltSeparator' | 'newPrefix' | 'checkEmail'>> = {
  [field.memCost]: 'memCost',
  [field.rounds]: 'rounds',
  [field.separator]: 'saltSeparator',
  [field.prefix]: 'newPrefix',
  [field.email]: 'checkEmail',
};
const secretFields: Partial<Record<number, 'signerKey' | 'checkPassword'>> = { [field.signerKey]: 'signerKey', [field.password]: 'checkPassword' };

export interface HashFamiliesScreenProps {
  state: WalkState;
  current: () => WalkState;
  planCurrent: boolean;
  emailCandidates: string[];
  dispatch: (action: WalkAction) => void;
  onCompleteEmail: () => void;
  onCheck: () => void;
}

/** The pasted hash_config block holds the signer key, so it goes into a masked field and is read as it arrives. */
function readPaste(pasted: string): Partial<HashForm> {
  if (pasted.trim() === '') return { pasted: new Secret(''), pasteNote: '' };
  const parsed = parseHashConfig(pasted);
  if (parsed instanceof Error) return { pasted: new Secret(pasted), pasteNote: new Secret(pasted).redact(parsed.message) };
  return {
    pasted: new Secret(''),
    pasteNote: 'read: the fields below now hold its values',
    memCost: String(parsed.memCost),
    rounds: String(parsed.rounds),
    saltSeparator: parsed.saltSeparator,
    ...(parsed.signerKey === undefined ? {} : { signerKey: parsed.signerKey }),
  };
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
      const next = key.return ? `${hashes.pasted.reveal()}\n` : applyTextKey(hashes.pasted.reveal(), input, key, true);
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
      const next = applyTextKey(hashes[textField], input, key);
      if (next !== undefined) edit({ [textField]: next });
      return;
    }
    const secretField = secretFields[hashes.focus];
    if (secretField !== undefined) {
      const next = applyTextKey(hashes[secretField].reveal(), input, key);
      if (next !== undefined) edit({ [secretField]: new Secret(next) });
    }
  });

  const hashConfig = hashConfigFromForm(form);
  const plan = state.plan;
  const scryptUsers = (plan?.summary?.byFamily.vendor_scrypt ?? 0) > 0 || hashConfig.state !== 'absent';
  const stackSignerKey = state.preflight.state === 'done' ? state.preflight.value.core.signerKeyConfigured : undefined;
  const stackSays = stackSignerKey === undefined ? '' : stackSignerKey ? ' The stack says the core has one.' : ' The stack says the core has NONE.';
  const enterDoes = form.focus === field.prefix ? 'add prefix' : form.focus >= field.email ? 'check password' : form.focus === field.paste && !form.pasted.isEmpty ? 'new line' : 'continue';
  return (
    <ScreenFrame step="Hashes" hints={[['↑↓', 'field'], ['Tab', form.focus === field.email ? 'complete email' : 'field'], ['Enter', enterDoes], ['Esc', 'back']]}>
      <FamilyLines plan={plan} current={planCurrent} />
      <Box flexDirection="column" marginTop={1}>
        <FieldRow label="hash_config" focus={form.focus === field.paste}>
          <MaskedInput value={form.pasted} focus={form.focus === field.paste} placeholder={form.pasteNote || 'paste the hash_config { … } block, or fill the fields'} />
        </FieldRow>
        <TextField label="mem_cost" value={form.memCost} focus={form.focus === field.memCost} />
        <TextField label="rounds" value={form.rounds} focus={form.focus === field.rounds} />
        <TextField label="salt separator" value={form.saltSeparator} focus={form.focus === field.separator} />
        <FieldRow label="signer key" focus={form.focus === field.signerKey}>
          <MaskedInput value={form.signerKey} focus={form.focus === field.signerKey} />
        </FieldRow>
        {hashConfig.state === 'invalid' ? <Tone tone="error">{`  ✗ ${hashConfig.sentence}`}</Tone> : null}
        {scryptUsers ? (
          <Box marginLeft={2}>
            <Text wrap="wrap">
              <Tone tone="warning">{'! '}</Tone>
              {`The core needs this same signer key (VENDOR_PASSWORD_HASHING_SIGNER_KEY).${stackSays}`}
            </Text>
          </Box>
        ) : null}
        <TextField
          label="add prefix"
          value={form.newPrefix}
          focus={form.focus === field.prefix}
          note={form.prefixNote}
          placeholder={form.prefixNote || (form.prefixRules.length > 0 ? `added: ${form.prefixRules.join(', ')}` : 'exact text, or re:<regex>')}
        />
        <TextField label="check email" value={form.checkEmail} focus={form.focus === field.email} placeholder="an account whose password you know" />
        {form.focus === field.email && emailCandidates.length > 1 ? (
          <Box marginLeft={18}>
            <Tone tone="muted">{emailCandidates.join('  ')}</Tone>
          </Box>
        ) : null}
        <FieldRow label="its password" focus={form.focus === field.password}>
          <MaskedInput value={form.checkPassword} focus={form.focus === field.password} />
        </FieldRow>
        <CheckLine check={state.check} />
      </Box>
    </ScreenFrame>
  );
}
