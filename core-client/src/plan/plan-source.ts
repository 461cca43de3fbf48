import type { DuplicatePolicy } from '../choices.js';
import { formatLocation, type RecordLocation } from '../location.js';
import { readSource, type OpenSourceOptions } from '../sources/read-source.js';
import { passwordlessLogin, type ImportOperation, type LoginTimeWait, type PlanItem, type PlanRejection } from './operation.js';
import { planRecord, type RecordPlanningRules } from './plan-record.js';
import { defaultProviderMap } from './providers.js';
import { recordPosition } from './record-key.js';
import { roleCandidates, type RoleCandidate } from '../roles/plan-roles.js';
import { SeenKeys, type KeyPosition } from '../seen-keys.js';
import { optional } from '../optional.js';

export interface PlanOptions extends OpenSourceOptions, Omit<RecordPlanningRules, 'providerMap'> {
  providerMap?: Readonly<Record<string, string>>;
  duplicates?: DuplicatePolicy;
}

/** One source record and everything it became: at least one operation or rejection. */
export interface PlannedRecord {
  location: RecordLocation;
  items: PlanItem[];
  /** Places in the record that hold role-like values, offered by the plan (see `roleCandidates`). */
  rolesFound?: RoleCandidate[];
}

/**
 * Streams the plan of a whole source. Duplicates are found across the stream: after normalisation a core would
 * silently overwrite the first user's hash with the second's, so only one of them becomes an operation.
 * "last-wins" needs to know the last occurrence before emitting anything, so it reads the source twice.
 */
export async function* planSource(path: string, planOptions: PlanOptions = {}): AsyncGenerator<PlannedRecord> {
  const options = { ...planOptions, providerMap: planOptions.providerMap ?? defaultProviderMap, sourceFile: path };
  const policy = options.duplicates ?? 'first-wins';
  const files = new SourceFiles();
  const seen = new SeenKeys();
  if (policy === 'last-wins') {
    for await (const record of readSource(path, options)) {
      const items = planRecord(record, options);
      for (const item of items) {
        const key = duplicateKey(item);
        if (key !== undefined) seen.recordLatest(key, files.positionOf(item.location));
      }
      const idKey = sourceIdKey(items);
      if (idKey !== undefined) seen.recordLatest(idKey, files.positionOf(record.location));
    }
  }
  for await (const record of readSource(path, options)) {
    const planned = planRecord(record, options);
    const idKey = sourceIdKey(planned);
    if (idKey !== undefined) {
      // An old id names one user: a second record with it would be a second core user fighting for the same mapping.
      const here = files.positionOf(record.location);
      const other = policy === 'first-wins' ? seen.firstSeenOrRecord(idKey, here) : seen.positionOf(idKey);
      const isOther = other !== undefined && (other.position !== here.position || other.source !== here.source);
      if (isOther) {
        const which = `duplicate old id: ${files.describe(other)} has the same id and is imported instead${policy === 'last-wins' ? ' (last wins)' : ''}`;
        yield {
          location: record.location,
          items: planned.map((item) => (item.kind === 'rejection' ? item : duplicateRejection(item, which, 'duplicateSourceId'))),
        };
        continue;
      }
    }
    const items = planned.map((item) => {
      const key = duplicateKey(item);
      if (key === undefined || item.kind === 'rejection') return item;
      const here = files.positionOf(item.location);
      if (policy === 'first-wins') {
        const first = seen.firstSeenOrRecord(key, here);
        return first === undefined ? item : duplicateRejection(item, `duplicate of ${files.describe(first)}, which is imported instead`);
      }
      const last = seen.positionOf(key);
      const isLast = last !== undefined && last.position === here.position && last.source === here.source;
      return isLast || last === undefined ? item : duplicateRejection(item, `duplicate of ${files.describe(last)}, which is imported instead (last wins)`);
    });
    const rolesFound = record.kind === 'user' ? roleCandidates(record) : [];
    yield rolesFound.length === 0 ? { location: record.location, items } : { location: record.location, items, rolesFound };
  }
}

function duplicateKey(item: PlanItem): string | undefined {
  // A parked user is a password user to be: its email is taken as a password import's is.
  if (item.kind === 'passwordImport' || item.kind === 'loginTimeWait') return `email\u0000${item.email}`;
  if (item.kind === 'thirdPartySignInUp') return `provider\u0000${item.body.thirdPartyId}\u0000${item.body.thirdPartyUserId}`;
  if (item.kind === 'passwordlessSignInUp') {
    // A passwordless user is found by its login, apart from a password user of the same email (another login kind).
    const login = passwordlessLogin(item);
    return login.kind === 'phone' ? `phone\u0000${login.phoneNumber}` : `passwordless\u0000${login.email}`;
  }
  return undefined;
}

/** The key of the record's old id, when the record has an operation to claim it with. */
function sourceIdKey(items: readonly PlanItem[]): string | undefined {
  for (const item of items) {
    if (item.kind !== 'rejection' && item.identity?.sourceId !== undefined) return `id\u0000${item.identity.sourceId}`;
  }
  return undefined;
}

function duplicateRejection(item: ImportOperation | LoginTimeWait, reason: string, code?: 'duplicateSourceId'): PlanRejection {
  return {
    kind: 'rejection',
    operationKey: item.operationKey,
    location: item.location,
    ...optional('email', item.email),
    ...optional('sourceId', item.identity?.sourceId),
    code: code ?? duplicateCode(item),
    operation: item.kind,
    reason: code === undefined ? `${accountWords(item)}${reason}` : reason,
  };
}

function duplicateCode(item: ImportOperation | LoginTimeWait): PlanRejection['code'] {
  if (item.kind === 'thirdPartySignInUp') return 'duplicateThirdPartyUser';
  if (item.kind === 'passwordlessSignInUp' && passwordlessLogin(item).kind === 'phone') return 'duplicatePhoneNumber';
  return 'duplicateEmail';
}

/** Which of the record's accounts is the duplicate, when it is not its password user. */
function accountWords(item: ImportOperation | LoginTimeWait): string {
  if (item.kind === 'thirdPartySignInUp') return `${item.sourceProviderId} account `;
  if (item.kind !== 'passwordlessSignInUp') return '';
  const login = passwordlessLogin(item);
  return login.kind === 'phone' ? `phone number ${login.phoneNumber}: ` : 'email-link user: ';
}

/** The few input files of a source (an Auth0 export has two), numbered so a position fits in a few bytes. */
class SourceFiles {
  readonly #files: { file: string; byLine: boolean }[] = [];

  positionOf(location: RecordLocation): KeyPosition {
    let source = this.#files.findIndex((entry) => entry.file === location.file);
    if (source < 0) {
      source = this.#files.push({ file: location.file, byLine: location.line !== undefined }) - 1;
    }
    return { position: recordPosition(location), source };
  }

  describe(at: KeyPosition): string {
    const entry = this.#files[at.source];
    if (entry === undefined) return `record ${at.position}`;
    return formatLocation(entry.byLine ? { file: entry.file, line: at.position } : { file: entry.file, index: at.position });
  }
}
