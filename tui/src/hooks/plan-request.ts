import { resolve } from 'node:path';
import { parseHashConfig, type HashConfig } from 'core-client/hashes/hash-config';
import { prefixRuleFromOption, type PrefixRule } from 'core-client/hashes/prefix-rules';
import type { PlanOptions } from 'core-client/plan/plan-source';
import type { HashForm, WalkState } from '../screens/walk-state.js';

export interface PlanRequest {
  path: string;
  options: PlanOptions;
  /** Equal for equal requests (never holds a secret), so a hook can tell a stale plan from the current one. */
  key: string;
}

export type HashConfigState = { state: 'absent' } | { state: 'parsed'; config: HashConfig } | { state: 'invalid'; sentence: string };

/**
 * The provider's hashing parameters as the fields hold them, read by core-client's own parser (the same one
 * `--hash-config` uses), so the app adds no rule of its own.
 */
export function hashConfigFromForm(form: HashForm): HashConfigState {
  const filled = [form.memCost, form.rounds, form.saltSeparator].map((value) => value.trim());
  if (filled.every((value) => value === '') && form.signerKey.isEmpty) return { state: 'absent' };
  const fields = [
    `base64_salt_separator: ${filled[2] ?? ''}`,
    `rounds: ${filled[1] ?? ''}`,
    `mem_cost: ${filled[0] ?? ''}`,
    ...(form.signerKey.isEmpty ? [] : [`base64_signer_key: ${form.signerKey.reveal()}`]),
  ];
  const parsed = parseHashConfig(`hash_config { algorithm: SCRYPT, ${fields.join(', ')} }`);
  if (parsed instanceof Error) return { state: 'invalid', sentence: form.signerKey.redact(parsed.message) };
  return { state: 'parsed', config: parsed };
}

/** The plan the walk asks for, with the path resolved against the app's working directory. */
export function planRequestFrom(state: WalkState, cwd: string): PlanRequest | undefined {
  if (!state.planRequested || state.source.path.trim() === '') return undefined;
  const hashConfig = hashConfigFromForm(state.hashes);
  // Rules are checked when added on the Hashes screen; one that does not parse cannot be in the list.
  const prefixRules = state.hashes.prefixRules.map((option) => prefixRuleFromOption(option)).filter((rule): rule is PrefixRule => !(rule instanceof Error));
  const options: PlanOptions = {
    ...(state.source.format === 'auto' ? {} : { format: state.source.format }),
    ...(hashConfig.state === 'parsed' ? { hashConfig: hashConfig.config } : {}),
    ...(prefixRules.length > 0 ? { prefixRules } : {}),
  };
  const config = hashConfig.state === 'parsed' ? hashConfig.config : undefined;
  const key = JSON.stringify({
    path: state.source.path.trim(),
    format: state.source.format,
    hash: config === undefined ? null : [config.memCost, config.rounds, config.saltSeparator],
    prefixes: state.hashes.prefixRules,
  });
  return { path: resolve(cwd, state.source.path.trim()), options, key };
}
