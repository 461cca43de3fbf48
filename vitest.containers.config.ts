import { configDefaults, defineConfig } from 'vitest/config';
import { base } from './vitest.config.js';

/**
 * `npm run test:containers`: the project's image (the root Dockerfile) built and run on a real Docker engine that the
 * global setup installs if missing, starts on its own socket and stops at the end. Not part of `npm test`: `.ci/run`
 * runs it after.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/containers/**/*.test.ts'],
    exclude: configDefaults.exclude,
    globalSetup: ['test/containers/support/engine.ts'],
    // One engine, one image, containers on the host's network: one file at a time.
    maxWorkers: 1,
    // The image's build runs npm ci inside it. On vfs (where overlay2 cannot start) every new container is a copy of
    // the whole image: minutes each on a loaded machine.
    hookTimeout: 1_200_000,
    testTimeout: 600_000,
  },
});
