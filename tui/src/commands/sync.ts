import { registerMigrationCommand } from './push.js';

/** `core-migrate sync <newer export> --journal <journal>`: the push of what changed since the journal's last run. */
export const registerSyncCommand = registerMigrationCommand('sync');
