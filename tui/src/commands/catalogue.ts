import type { RegisterCommand } from './index.js';

/**
 * Every subcommand with its one-line description and how to load it. The command line loads only the module of
 * the subcommand it runs, so `--version`, `--help` and each command start without the others' dependencies.
 */
export const commandCatalogue = {
  hash: {
    description: 'inspect one password hash, or check a known password against it, before a migration',
    load: async (): Promise<RegisterCommand> => (await import('./hash.js')).registerHashCommand,
  },
  plan: {
    description: 'read an export and show what would be imported, and what would be refused and why (sends nothing)',
    load: async (): Promise<RegisterCommand> => (await import('./plan.js')).registerPlanCommand,
  },
  push: {
    description: 'import an export into the core: bounded concurrency, retries, a journal to resume, a report of every refusal',
    load: async (): Promise<RegisterCommand> => (await import('./push.js')).registerPushCommand,
  },
  sync: {
    description:
      'bring over what changed in a newer export since the journal of an earlier push or sync (new users, passwords, emails, verifications, profiles, disabled and deleted accounts); nothing else is sent',
    load: async (): Promise<RegisterCommand> => (await import('./sync.js')).registerSyncCommand,
  },
  check: {
    description: 'pre-flight only: the core answers /hello, accepts the api-key, and has the tenant; shows versions and round-trip time',
    load: async (): Promise<RegisterCommand> => (await import('./check.js')).registerCheckCommand,
  },
  rollback: {
    description: 'remove exactly the users a push created, by the ids its journal recorded; never a user that was there before',
    load: async (): Promise<RegisterCommand> => (await import('./rollback.js')).registerRollbackCommand,
  },
} as const satisfies Record<string, { description: string; load: () => Promise<RegisterCommand> }>;

export type CommandName = keyof typeof commandCatalogue;

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(commandCatalogue, name);
}
