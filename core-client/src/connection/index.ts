export { ConnectionError, isConnectionError, type ConnectionErrorKind, type ConnectionProblem } from './errors.js';
export { listPulumiStacks, readStackConnection, type PulumiCliOptions, type StackConnection } from './pulumi-cli.js';
export { StackOutputsSchema, stackCoreUrls, type StackDatabase, type StackOutputs } from './stack-outputs.js';
export {
  ConnectionEnv,
  resolveConnection,
  type Connection,
  type ConnectionInput,
  type ConnectionSource,
  type ResolveConnectionOptions,
} from './resolve-connection.js';
export {
  PreflightReportSchema,
  PreflightStepNameSchema,
  PreflightStepSchema,
  runPreflight,
  type PreflightOptions,
  type PreflightReport,
  type PreflightStep,
  type PreflightStepName,
} from './preflight.js';
