export * from '../push/identity-options.js';
export { metadataOf, mappingInfo } from '../plan/metadata.js';
export { probeIdentityFeatures, identityOptionsFor, type FeatureSupport, type PlanIdentity } from './features.js';
export { runUserSteps, stepCounters, type StepCounter, type IdentityClient, type UserStepContext } from '../push/user-steps.js';
export {
  assignRoles,
  setUpRoles,
  removeCreatedRoles,
  createdRoles,
  rolesRecordPath,
  roleNotes,
  type RoleAssignment,
  type RoleSetupOptions,
  type RoleRemoval,
} from './roles.js';
