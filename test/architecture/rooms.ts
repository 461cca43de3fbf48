import type { Layout } from './import-graph.js';

/**
 * The house's rooms, bottom up (docs/contributing.md, "Layers"): the one list layers.test.ts holds the code to. A room
 * is a folder of its tree or a file at the tree's top; a room imports only rooms on floors below its own, and the
 * rooms of one floor do not import each other. A new folder is placed here on purpose, or the test fails naming it;
 * a room that moves is moved here.
 */
export const LAYOUT = {
  trees: {
    'core-client/src': [
      ['contract'],
      ['choices.ts', 'location.ts', 'optional.ts', 'printable.ts', 'problem.ts', 'secret.ts', 'seen-keys.ts'],
      ['files'],
      ['hashes'],
      ['http'],
      ['sources'],
      ['roles'],
      ['connection'],
      ['plan'],
      ['identity'],
      // The old system asked for a password, then its tokens checked (session migration), below the rest of login-time.
      ['login-time/old-system'],
      ['login-time/old-token'],
      ['login-time'],
      ['summary'],
      ['journal'],
      ['sync'],
      ['rollback'],
      ['settings'],
      ['push'],
      ['run'],
      ['index.ts'],
    ],
    'tui/src': [['io.ts'], ['invocation.ts'], ['components'], ['app'], ['screens'], ['terminal-app.tsx'], ['commands'], ['cli.ts']],
    infra: [
      ['image-reference.ts'],
      ['config-terms.ts'],
      ['old-system.ts', 'kubernetes-keys.ts'],
      ['config.ts'],
      ['core-settings.ts', 'core-urls.ts', 'load-config.ts'],
      ['auth-core.ts', 'login-service.ts'],
      ['docker-program.ts', 'kubernetes'],
      ['index.ts'],
    ],
  },
  // tui and infra sit on core-client and import it by its package name, through an entry of its package.json
  // `exports`; infra takes only types from it (docs/infra.md, "Stack outputs").
  package: { tree: 'core-client/src', users: { 'tui/src': 'values', infra: 'types' } },
  importedOnlyBy: {
    'tui/src/commands/catalogue.ts': {
      files: ['tui/src/cli.ts'],
      why: "the catalogue is data: cli.ts makes each command from its entry and loads the command's module only when it runs",
    },
  },
} as const satisfies Layout;
