import { formatLocation } from '../location.js';
import type { ImportOperation } from '../plan/operation.js';
import type { ReportLine } from '../plan/rejection-report.js';
import type { SyncItem } from '../sync/delta.js';
import { optional } from '../optional.js';

/** The report line of what the core (or the run) said of an operation; a removal may be of a user no longer exported. */
export function coreReportLine(item: ImportOperation | SyncItem, line: { code: string; reason: string }): ReportLine {
  if (item.kind === 'accountRemoval') {
    return {
      stage: 'core',
      location: item.location === undefined ? 'not in the newer export' : formatLocation(item.location),
      sourceId: item.sourceId,
      operation: item.kind,
      code: line.code,
      reason: line.reason,
    };
  }
  const operation = item.kind === 'accountChange' ? item.operation : item;
  const sourceId = operation.identity?.sourceId;
  return {
    stage: 'core',
    location: formatLocation(item.location),
    ...optional('email', item.email),
    ...optional('sourceId', sourceId),
    operation: item.kind,
    code: line.code,
    reason: line.reason,
  };
}
