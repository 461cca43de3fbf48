import { z } from 'zod';
import { DeletedPolicySchema } from '../choices.js';
import { DEFAULT_MAX_REMOVALS, DEFAULT_MIN_OVERLAP_PERCENT, RemovalLimitSchema } from '../sync/sync-guard.js';
import type { SettingFlagOf } from './setting-flag.js';
import { optionalWholeNumber, unset } from './setting-values.js';

/** What a sync does with a newer export: users gone from it, and the guards against syncing the wrong one. */
export const syncSettings = {
  /** A sync: what happens to users gone from the newer export. */
  deleted: DeletedPolicySchema.default('keep'),
  /** A sync: the least share (percent) of the journal's users the newer export must still have; unset: 50. */
  minOverlap: optionalWholeNumber(0, 100, 'a whole percentage'),
  /** A sync goes on whatever the overlap: the operator says the export is the right one. */
  ignoreOverlap: z.boolean().default(false),
  /** A sync removes at most this many users: a count, or a share of the journal's users (`5%`); unset: 5%. */
  maxRemovals: z.preprocess(unset, RemovalLimitSchema.optional()),
};

export const syncFlags: readonly SettingFlagOf<keyof typeof syncSettings>[] = [
  {
    key: 'deleted',
    flag: '--deleted',
    value: '<policy>',
    label: 'gone from the export',
    group: 'identity',
    kind: { type: 'choice', choices: DeletedPolicySchema.options },
    help: 'a user the migration brought over that the newer export no longer has: reported and kept, or removed from the core (only if the migration created it)',
    commands: ['sync'],
  },
  {
    key: 'minOverlap',
    flag: '--min-overlap',
    value: '<percent>',
    label: 'least overlap',
    group: 'identity',
    kind: { type: 'text' },
    help: `the least share of the journal's users the newer export must still have (same old id, and the same email or password hash), or the sync is refused before anything is sent (default: ${DEFAULT_MIN_OVERLAP_PERCENT})`,
    commands: ['sync'],
  },
  {
    key: 'ignoreOverlap',
    flag: '--ignore-overlap',
    label: 'sync an unlike export',
    group: 'identity',
    kind: { type: 'switch' },
    help: "sync even an export that shares less than --min-overlap of the journal's users (it is the right one)",
    commands: ['sync'],
  },
  {
    key: 'maxRemovals',
    flag: '--max-removals',
    value: '<n|share%>',
    label: 'most removals',
    group: 'identity',
    kind: { type: 'text' },
    help: `remove at most this many users (disabled, or gone with --deleted remove): a count, or a share of the journal's users; over it nobody is removed (default: ${DEFAULT_MAX_REMOVALS})`,
    commands: ['sync'],
  },
];
