export * from './options.js';
export { metadataOf, mappingInfo } from './metadata.js';
export { probeIdentityFeatures, identityOptionsFor, type FeatureSupport, type PlanIdentity } from './features.js';
export { runUserSteps, stepCounters, type StepCounter, type IdentityClient, type UserStepContext } from './user-steps.js';
