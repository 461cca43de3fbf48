import { z } from 'zod';
import { ExistingPolicySchema } from '../choices.js';
import type { SettingFlagOf } from './setting-flag.js';

/** What a push writes for each user: ids, verified emails, metadata, and what happens to users already in the core. */
export const pushSettings = {
  keepIds: z.boolean().default(true),
  verifyEmails: z.boolean().default(true),
  metadata: z.boolean().default(true),
  existing: ExistingPolicySchema.default('skip'),
};

export const pushFlags: readonly SettingFlagOf<keyof typeof pushSettings>[] = [
  {
    key: 'keepIds',
    flag: '--no-keep-ids',
    label: 'keep old ids',
    group: 'identity',
    kind: { type: 'negatable' },
    help: "do not map each user's core id to its id in the old system",
    commands: ['push', 'sync'],
  },
  {
    key: 'verifyEmails',
    flag: '--no-verify-emails',
    label: 'verify emails',
    group: 'identity',
    kind: { type: 'negatable' },
    help: 'do not verify in the core the emails the source marks verified',
    commands: ['push', 'sync'],
  },
  {
    key: 'metadata',
    flag: '--no-metadata',
    label: 'profile metadata',
    group: 'identity',
    kind: { type: 'negatable' },
    help: 'do not write the profile (name, photo, times, claims) into the user metadata',
    commands: ['push', 'sync'],
  },
  {
    key: 'existing',
    flag: '--existing',
    value: '<policy>',
    label: 'already in the core',
    group: 'identity',
    kind: { type: 'choice', choices: ExistingPolicySchema.options },
    help: 'a password user already in the core: left untouched, or its hash replaced (a sync always leaves it untouched)',
    commands: ['push', 'sync'],
  },
];
