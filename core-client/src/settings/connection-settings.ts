import { z } from 'zod';
import { connectionCommands, type SettingFlagOf } from './setting-flag.js';
import { optionalText } from './setting-values.js';

/** How a command reaches the core: its URL (or a Pulumi stack), tenant, app, api-key and certificate authority. */
export const connectionSettings = {
  /** One URL, or several cores that share one database. */
  core: z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string().trim().min(1)).default([])),
  stack: optionalText,
  tenant: optionalText,
  app: optionalText,
  apiKeyFile: optionalText,
  /** Certificates (PEM) of the authority behind an https:// core's certificate; unset: the ones Node trusts. */
  caFile: optionalText,
};

export const connectionFlags: readonly SettingFlagOf<keyof typeof connectionSettings>[] = [
  {
    key: 'core',
    flag: '--core',
    value: '<url>',
    label: 'core URL',
    group: 'connection',
    kind: { type: 'list' },
    help: "the core, e.g. http://127.0.0.1:3567; again for each core sharing its database (default: CORE_URL, then the stack's coreUrls)",
    commands: connectionCommands,
  },
  {
    key: 'stack',
    flag: '--stack',
    value: '<name>',
    label: 'Pulumi stack',
    group: 'connection',
    kind: { type: 'text' },
    help: "read coreUrl and apiKey from this Pulumi stack's outputs (needs the pulumi CLI)",
    commands: connectionCommands,
  },
  {
    key: 'tenant',
    flag: '--tenant',
    value: '<id>',
    label: 'tenant',
    group: 'connection',
    kind: { type: 'text' },
    help: 'the tenant to import into (default: public)',
    commands: connectionCommands,
  },
  {
    key: 'app',
    flag: '--app',
    value: '<id>',
    label: 'app',
    group: 'connection',
    kind: { type: 'text' },
    help: 'the app the tenant belongs to (default: public)',
    commands: connectionCommands,
  },
  {
    key: 'apiKeyFile',
    flag: '--api-key-file',
    value: '<file>',
    label: 'api-key file',
    group: 'connection',
    kind: { type: 'path' },
    help: "a file holding the api-key (default: CORE_API_KEY, then the stack's apiKey)",
    commands: connectionCommands,
  },
  {
    key: 'caFile',
    flag: '--ca-file',
    value: '<file>',
    label: 'CA file',
    group: 'connection',
    kind: { type: 'path' },
    help: "the certificate (PEM) of the authority that signed an https:// core's certificate, e.g. a self-signed one (default: the authorities Node trusts)",
    commands: connectionCommands,
  },
];
