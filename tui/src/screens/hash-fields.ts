import { Secret } from 'core-client/secret';
import { parseHashConfig } from 'core-client/hashes/hash-config';
import { cursorKeysHint, type KeyHint } from '../components/key-hints.js';
import type { HashForm } from './walk-state.js';

/** The Hashes screen's fields, in focus order, and what its keys do in each. */
export const field = { paste: 0, memCost: 1, rounds: 2, separator: 3, signerKey: 4, prefix: 5, email: 6, password: 7 } as const;
export const fieldCount = 8;
export const textFields: Partial<Record<number, 'memCost' | 'rounds' | 'saltSeparator' | 'newPrefix' | 'checkEmail'>> = {
  [field.memCost]: 'memCost',
  [field.rounds]: 'rounds',
  [field.separator]: 'saltSeparator',
  [field.prefix]: 'newPrefix',
  [field.email]: 'checkEmail',
};
export const secretFields: Partial<Record<number, 'signerKey' | 'checkPassword'>> = { [field.signerKey]: 'signerKey', [field.password]: 'checkPassword' };

/** The pasted hash_config block holds the signer key, so it goes into a masked field and is read as it arrives. */
export function readPaste(pasted: string): Partial<HashForm> {
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

/** The keys of the focused field, on one line: a masked field has no cursor to move. */
export function hashesHints(form: HashForm): KeyHint[] {
  const back: KeyHint = ['Esc', 'back'];
  switch (form.focus) {
    case field.paste:
      return [['Tab/↑↓', 'field'], ['Enter', form.pasted.isEmpty ? 'continue' : 'new line'], back];
    case field.signerKey:
      return [['Tab/↑↓', 'field'], ['Enter', 'continue'], back];
    case field.prefix:
      return [['Tab/↑↓', 'field'], cursorKeysHint, ['Enter', 'add prefix'], back];
    case field.email:
      return [['↑↓', 'field'], ['Tab', 'complete'], cursorKeysHint, ['Enter', 'check password'], back];
    case field.password:
      return [['Tab/↑↓', 'field'], ['Enter', 'check password'], back];
    default:
      return [['Tab/↑↓', 'field'], cursorKeysHint, ['Enter', 'continue'], back];
  }
}
