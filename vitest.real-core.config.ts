import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:real-core`: the suites that run the `core-migrate` binary against a real core (../shared/real-core,
 * started by each suite on a free port). Not part of `npm test`: `.ci/run` runs it after.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/real-core/**/*.test.ts'],
    exclude: configDefaults.exclude,
    // Each file starts its own core (a JVM of up to 1 GiB); one file at a time keeps a 2-core machine responsive.
    maxWorkers: 1,
    // The first start on a fresh machine installs Java with apt and builds the core.
    hookTimeout: 600_000,
    testTimeout: 180_000,
  },
});
