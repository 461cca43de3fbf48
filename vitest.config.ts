import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `source` points core-client's exports at its TypeScript, so suites test the sources without a build. No
  // `module` condition: it would pick ESM builds that Node cannot load (@opentelemetry/api's, under Pulumi).
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    globalSetup: ['test/support/build.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
