export { createdUsers, journalTarget, JournalReadError, type CreatedUser } from './journal-users.js';
export { runRollback, type RollbackOptions, type RollbackSummary, type RollbackClient } from './rollback.js';
