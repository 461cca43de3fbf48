/**
 * The limits moved to `concurrency.ts` with the controller that replaced AIMD; the faces still import them from here
 * (`core-client/push/aimd`) until they take them from the settings model.
 */
export { ConcurrencyLimitsSchema, concurrencyLimitsFor, defaultConcurrencyLimits, type ConcurrencyLimits } from './concurrency.js';
