/**
 * Every subcommand as data: its one-line description and the docs page its `--help` ends with. The command line
 * (cli.ts) makes each command from its entry and hands it to the command's module, so no command imports this back.
 * A new command is one entry here and one loader in cli.ts.
 */
export const commandCatalogue = {
  hash: {
    description: 'inspect one password hash, or check a known password against it, before a migration',
    docs: 'docs/hashes.md',
  },
  plan: {
    description: 'read an export and show what would be imported, and what would be refused and why (sends nothing)',
    docs: 'docs/exports.md',
  },
  push: {
    description: 'import an export into the core: bounded concurrency, retries, a journal to resume, a report of every refusal',
    docs: 'docs/push.md',
  },
  sync: {
    description:
      'bring over what changed in a newer export since the journal of an earlier push or sync (new users, passwords, emails, verifications, profiles, disabled and deleted accounts); nothing else is sent',
    docs: 'docs/sync.md',
  },
  check: {
    description: 'pre-flight only: the core answers /hello, accepts the api-key, and has the tenant; shows versions and round-trip time',
    docs: 'docs/push.md',
  },
  rollback: {
    description: 'remove exactly the users a push created, by the ids its journal recorded; never a user that was there before',
    docs: 'docs/push.md',
  },
  journal: {
    description: 'journal show J: what a journal is (its export and core, each run with its time and counts, the users it holds); reads only',
    docs: 'docs/push.md',
  },
  'login-migration': {
    description:
      'serve --store S --core URL: the service a backend asks when the core refuses a sign-in of a parked user; status --store S: users still waiting, arrivals per day, the list of those still waiting',
    docs: 'docs/login-time.md',
  },
} as const satisfies Record<string, { description: string; docs: `docs/${string}.md` }>;

/** The page of the terminal app, which opens without a subcommand. */
export const appDocs = 'docs/app.md';

export type CommandName = keyof typeof commandCatalogue;

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(commandCatalogue, name);
}

/** The last lines of a command's help: where its documentation is. */
export function docsHelpText(page: string): string {
  return `\nDocumentation: ${page} (in the core-migrate repository)`;
}
