import { z } from 'zod';
import { connectionCommands, type SettingFlagOf } from './setting-flag.js';
import { optionalText, optionalWholeNumber } from './setting-values.js';

/** The most requests in flight an operator may ask for: beyond it a single client only queues in its own pool. */
export const MAX_CONCURRENCY = 1_024;
/** A day: a longer silence is no core to wait for. */
export const MAX_GIVE_UP_AFTER_SECONDS = 86_400;

/** How a run goes and what it leaves: its pace, patience, journal, report and output. */
export const runSettings = {
  /** Requests in flight at most; unset: adaptive. */
  concurrency: optionalWholeNumber(1, MAX_CONCURRENCY, 'a whole number'),
  /** Seconds the core may answer nothing useful before the push stops (exit 3); unset: the engine's default. */
  giveUpAfter: optionalWholeNumber(1, MAX_GIVE_UP_AFTER_SECONDS, 'a whole number of seconds'),
  journal: optionalText,
  report: optionalText,
  dryRun: z.boolean().default(false),
  verifyCredentials: optionalText,
  json: z.boolean().default(false),
};

export const runFlags: readonly SettingFlagOf<keyof typeof runSettings>[] = [
  {
    key: 'concurrency',
    flag: '--concurrency',
    value: '<n>',
    label: 'concurrency',
    group: 'run',
    kind: { type: 'text' },
    help: `requests in flight at most, 1 to ${MAX_CONCURRENCY} (default: adaptive)`,
    commands: ['push', 'sync'],
  },
  {
    key: 'giveUpAfter',
    flag: '--give-up-after',
    value: '<seconds>',
    label: 'give up after',
    group: 'run',
    kind: { type: 'text' },
    help: 'stop (exit 3) once the core has answered nothing useful this long; until then requests wait (default: 300)',
    commands: connectionCommands,
  },
  {
    key: 'journal',
    flag: '--journal',
    value: '<file>',
    label: 'journal',
    group: 'run',
    kind: { type: 'path' },
    help: 'the journal that makes a re-run resume (default: beside the report); one push at a time (it is locked)',
    commands: ['push', 'sync', 'rollback'],
  },
  {
    key: 'report',
    flag: '--report',
    value: '<file>',
    label: 'report',
    group: 'run',
    kind: { type: 'path' },
    help: 'every record not imported, and why, one JSON object per line, appended after a line naming the run (default: <file>.push-report.ndjson here)',
    commands: ['plan', 'push', 'sync'],
  },
  {
    key: 'dryRun',
    flag: '--dry-run',
    label: 'dry run',
    group: 'run',
    kind: { type: 'switch' },
    help: 'plan and pre-flight only: nothing is written to the core',
    commands: ['push', 'sync', 'rollback'],
  },
  {
    key: 'verifyCredentials',
    flag: '--verify-credentials',
    value: '<file>',
    label: 'credentials file',
    group: 'run',
    kind: { type: 'path' },
    help: 'lines of "email password" of known accounts: checked locally before, signed in after',
    commands: ['push', 'sync'],
  },
  {
    key: 'json',
    flag: '--json',
    label: 'JSON output',
    group: 'run',
    kind: { type: 'switch' },
    help: 'end with one JSON object holding the summary counts',
    commands: ['plan', 'push', 'sync', 'check', 'rollback', 'status'],
  },
];
