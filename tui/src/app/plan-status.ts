import { parseHashConfig, type HashConfig } from 'core-client';
import { describeProblem } from 'core-client/settings';
import { planDraftKey } from './draft.js';
import type { AppState, TypedHash } from './state.js';

export type TypedHashState = { state: 'absent' } | { state: 'parsed'; config: HashConfig } | { state: 'invalid'; sentence: string };

/**
 * The scrypt parameters as typed or pasted, read by core-client's own parser (the one `--hash-config` uses), so the
 * app adds no rule of its own. Not used when a hash_config file is named.
 */
export function typedHashConfig(hash: TypedHash): TypedHashState {
  const filled = [hash.memCost, hash.rounds, hash.saltSeparator].map((value) => value.trim());
  if (filled.every((value) => value === '') && hash.signerKey.isEmpty) return { state: 'absent' };
  const fields = [
    `base64_salt_separator: ${filled[2] ?? ''}`,
    `rounds: ${filled[1] ?? ''}`,
    `mem_cost: ${filled[0] ?? ''}`,
    ...(hash.signerKey.isEmpty ? [] : [`base64_signer_key: ${hash.signerKey.reveal()}`]),
  ];
  const parsed = parseHashConfig(`hash_config { algorithm: SCRYPT, ${fields.join(', ')} }`);
  if (parsed instanceof Error) return { state: 'invalid', sentence: hash.signerKey.redact(describeProblem(parsed, 'app')) };
  return { state: 'parsed', config: parsed };
}

/** The typed parameters the plan uses: none when a hash_config file is named (the file wins). */
export function typedHashForPlan(state: AppState): HashConfig | undefined {
  if (state.draft.hashConfig.trim() !== '') return undefined;
  const typed = typedHashConfig(state.hash);
  return typed.state === 'parsed' ? typed.config : undefined;
}

/** What the plan is counted with; equal keys, equal plans (the signer key changes no planned operation). */
export function currentPlanKey(state: AppState): string {
  const typed = typedHashForPlan(state);
  return planDraftKey(state.draft, typed === undefined ? '' : JSON.stringify([typed.memCost, typed.rounds, typed.saltSeparator]));
}

/** Whether the counted plan is the one the fields describe now. */
export function planCurrent(state: AppState): boolean {
  return state.plan !== undefined && state.plan.key === currentPlanKey(state);
}
