import type { SourceRecord } from '../sources/source-user.js';
import type { PlanRejection, RejectionCode } from './operation.js';

/** A record, or one account of it, that the plan refuses, with the sentence that says why. */
export function rejection(
  record: SourceRecord,
  operationKey: string,
  code: RejectionCode,
  reason: string,
  operation?: PlanRejection['operation'],
): PlanRejection {
  const email = record.kind === 'user' ? record.email?.trim().toLowerCase() : undefined;
  // A broken record names its old id too when it still has one; an empty id names nobody.
  const sourceId = record.sourceId?.trim() === '' ? undefined : record.sourceId;
  return {
    kind: 'rejection',
    operationKey: operationKey.includes('#') ? operationKey : `${operationKey}#${code}`,
    location: record.location,
    ...(email !== undefined && email !== '' && { email }),
    ...(sourceId !== undefined && { sourceId }),
    code,
    ...(operation !== undefined && { operation }),
    reason,
  };
}
