import { configDefaults, defineConfig } from 'vitest/config';

// `source` points core-client's exports at its TypeScript, so suites test the sources without a build. No
// `module` condition: it would pick ESM builds that Node cannot load (@opentelemetry/api's, under Pulumi).
const ssr = { resolve: { conditions: ['source', 'node', 'development|production'] } };
const timeouts = { testTimeout: 30_000, hookTimeout: 30_000 };
const suites = ['test/**/*.test.ts', 'test/**/*.test.tsx'];
// The suites against a real core and on a real Docker engine run on their own: `npm run test:real-core`
// (vitest.real-core.config.ts) and `npm run test:containers` (vitest.containers.config.ts).
const runApart = [...configDefaults.exclude, 'test/real-core/**', 'test/containers/**'];

/**
 * The files that change what a later file in the same worker would see, so each gets a fresh worker: no-color sets
 * FORCE_COLOR before chalk first loads; infra's suites load the Pulumi program against the SDK's process-wide mocks
 * and reset the module registry; supertokens-node is initialised once per process (its API version and JWKS caches
 * too), so its file starts it fresh. Every other file shares its worker's loaded modules with the files before it
 * (`isolate: false`): starting a worker and importing React, Ink and the sources again for each of ~200 files was about a
 * third of the suite's CPU time (docs/contributing.md "Tests").
 */
const ownWorker = ['test/tui/components/no-color.test.tsx', 'test/infra/**/*.test.ts', 'test/core-double/supertokens-node.test.ts'];

/** What the other configs (real-core, containers) start from: one project, each file in its own worker. */
export const base = defineConfig({ ssr, test: { include: suites, exclude: runApart, globalSetup: ['test/support/build.ts'], ...timeouts } });

export default defineConfig({
  ssr,
  test: {
    // Builds dist/ once for both projects (the root's global setup runs whichever projects run).
    globalSetup: ['test/support/build.ts'],
    // Vitest leaves one core free by default: on the 2-core machines this runs on, that is one test file at a time.
    // Most suites wait on sockets, processes and timers rather than on the CPU, so two at a time halves the run
    // (about 100 s instead of 190 s, measured three times, all green).
    maxWorkers: 2,
    ...timeouts,
    projects: [
      { ssr, test: { name: 'shared', include: suites, exclude: [...runApart, ...ownWorker], isolate: false, ...timeouts } },
      { ssr, test: { name: 'own-worker', include: ownWorker, exclude: configDefaults.exclude, ...timeouts } },
    ],
  },
});
