import { planSource, type PlanOptions } from './plan-source.js';
import { PlanTally, type PlanSummary } from './summary.js';

export * from './operation.js';
export { planSource, type PlanOptions, type PlannedRecord, type DuplicatePolicy } from './plan-source.js';
export { planRecord } from './plan-record.js';
export { PlanTally, PlanSummarySchema, LISTED_REJECTIONS_LIMIT, type PlanSummary } from './summary.js';
export { normaliseEmail, MAX_EMAIL_LENGTH } from './email.js';
export { buildProviderMap, defaultProviderMap, ProviderMapError, isThirdPartyProvider, shortProviderName } from './providers.js';
export { recordKey } from './record-key.js';
export {
  rolesOfRecord,
  roleCandidates,
  readRoleValue,
  describePlanRoles,
  parseRoleMap,
  parseRolesFile,
  PlanRolesSchema,
  type RoleRules,
  type PlanRoles,
} from './roles.js';

/** Reads the whole source once and counts its plan; `onProgress` is called with the tally every `progressEvery` records. */
export async function summarisePlan(
  path: string,
  options: PlanOptions = {},
  onProgress?: (tally: PlanTally) => void,
  progressEvery = 10_000,
): Promise<PlanSummary> {
  const tally = new PlanTally(options.roles?.from);
  for await (const record of planSource(path, options)) {
    tally.addRecord(record);
    if (onProgress !== undefined && tally.records % progressEvery === 0) onProgress(tally);
  }
  onProgress?.(tally);
  return tally.summary();
}
export { ReportWriter, reportLineOfRejection, type ReportLine } from './rejection-report.js';
