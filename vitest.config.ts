import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  // `source` points core-client's exports at its TypeScript, so suites test the sources without a build. No
  // `module` condition: it would pick ESM builds that Node cannot load (@opentelemetry/api's, under Pulumi).
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // The suites against a real core and on a real Docker engine run on their own: `npm run test:real-core`
    // (vitest.real-core.config.ts) and `npm run test:containers` (vitest.containers.config.ts).
    exclude: [...configDefaults.exclude, 'test/real-core/**', 'test/containers/**'],
    globalSetup: ['test/support/build.ts'],
    // Vitest leaves one core free by default: on the 2-core machines this runs on, that is one test file at a time.
    // Most suites wait on sockets, processes and timers rather than on the CPU, so two at a time halves the run
    // (about 100 s instead of 190 s, measured three times, all green).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
