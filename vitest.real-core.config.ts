import { configDefaults, defineConfig } from 'vitest/config';
import { base } from './vitest.config.js';

/**
 * `npm run test:real-core`: the suites that run the `core-migrate` binary against a live core you run yourself, given
 * by URL (REAL_CORE_URL, REAL_CORE_PG_URL, REAL_CORE_API_KEY, REAL_CORE_SIGNER_KEY; docs/contributing.md). Without
 * them every suite is skipped, its title saying why. Not part of `npm test`.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/real-core/**/*.test.ts'],
    exclude: configDefaults.exclude,
    // The files share the cores they are given: each needs them empty, and leaves them so, one file at a time.
    maxWorkers: 1,
    hookTimeout: 120_000,
    // Each skipped suite's line names why (which variable is missing).
    reporters: ['verbose'],
    testTimeout: 180_000,
  },
});
