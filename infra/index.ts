import * as pulumi from '@pulumi/pulumi';
import { AuthCore } from './auth-core.js';
import { CONFIG_NAMESPACE, StackConfigError, configWarnings, defaultCoreUrl, readStackConfig } from './config.js';

const stackConfig = new pulumi.Config(CONFIG_NAMESPACE);
// A typed key (e.g. the integer hostPort) may arrive as a JSON number; the validator reads text.
const config = readStackConfig({
  get: (key) => {
    const value: unknown = stackConfig.get(key);
    return value === undefined ? undefined : String(value);
  },
});
if (config instanceof StackConfigError) {
  // RunError prints the sentences without a stack trace, before any resource is declared.
  throw new pulumi.RunError(config.message);
}
for (const warning of configWarnings(config)) void pulumi.log.warn(warning);

const apiKeySecret = pulumi.secret(config.apiKey);

const core = new AuthCore('auth-core', {
  image: config.image,
  apiKey: apiKeySecret,
  signerKey: config.signerKey === undefined ? undefined : pulumi.secret(config.signerKey),
  hostPort: config.hostPort,
  bindAddress: config.bindAddress,
  database: config.database,
  postgresImage: config.postgresImage,
});

// These names are read by core-client's connection step (`pulumi stack output --json --show-secrets`).
export const coreUrl = defaultCoreUrl(config);
export const apiKey = apiKeySecret;
export const signerKeyConfigured = config.signerKey !== undefined;
export const database = config.database;
export const coreContainerName = core.coreContainer.name;
