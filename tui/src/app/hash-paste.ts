import { parseHashConfig, Secret } from 'core-client';
import { describeProblem, optional } from 'core-client/settings';
import type { TypedHash } from './state.js';

/** Whether pasted text is meant as the provider's hashing parameters rather than a field's value. */
export function looksLikeHashConfig(text: string): boolean {
  return /hash_config|base64_signer_key|base64_salt_separator|mem_cost/.test(text);
}

/**
 * A hash_config block (or its JSON) read into the typed fields; a block that does not parse says why, in words that
 * never quote it (it holds the signer key).
 */
export function readHashConfigPaste(text: string): Partial<TypedHash> {
  if (text.trim() === '') return { pasted: new Secret(''), pasteNote: '', pasteFailed: false };
  const parsed = parseHashConfig(text);
  if (parsed instanceof Error)
    return {
      pasted: new Secret(text),
      pasteNote: `the pasted hash_config cannot be used: ${new Secret(text).redact(describeProblem(parsed, 'app'))}`,
      pasteFailed: true,
    };
  return {
    pasted: new Secret(''),
    pasteNote: 'hash_config read: the fields below hold its values',
    pasteFailed: false,
    memCost: String(parsed.memCost),
    rounds: String(parsed.rounds),
    saltSeparator: parsed.saltSeparator,
    ...optional('signerKey', parsed.signerKey),
  };
}
