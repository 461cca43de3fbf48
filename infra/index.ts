import * as pulumi from '@pulumi/pulumi';
import { AuthCore, dockerEngineSettings } from './auth-core.js';
import { CONFIG_NAMESPACE, StackConfigError, configWarnings } from './config.js';
import { loadStackConfig } from './load-config.js';

// Awaited before any resource is declared: a config that cannot work stops here with its sentences.
const config = await loadStackConfig(new pulumi.Config(CONFIG_NAMESPACE));
if (config instanceof StackConfigError) {
  // RunError prints the sentences without a stack trace.
  throw new pulumi.RunError(config.message);
}
for (const warning of configWarnings(config)) void pulumi.log.warn(warning);

const core = new AuthCore('auth-core', {
  image: config.image,
  apiKey: config.apiKey,
  signerKey: config.signerKey,
  hostPort: config.hostPort,
  bindAddress: config.bindAddress,
  database: config.database,
  postgresImage: config.postgresImage,
  replicas: config.replicas,
  coreUrl: config.coreUrl,
  protectDatabase: config.protectDatabase,
  registry:
    config.registryAddress === undefined || config.registryUsername === undefined || config.registryPassword === undefined
      ? undefined
      : { address: config.registryAddress, username: config.registryUsername, password: config.registryPassword },
  dockerEngine: dockerEngineSettings(new pulumi.Config('docker')),
});

// The outputs core-client's connection step reads (`pulumi stack output --json --show-secrets`), typed by its schema.
export const { coreUrl, coreUrls, apiKey, signerKeyConfigured, database } = core.outputs;
// For the operator: `docker logs <name>`, and the volume to remove by hand once it is really to go.
export const coreContainerNames = pulumi.all(core.coreContainers.map((container) => container.name));
export const coreContainerName = coreContainerNames.apply((names) => names[0]);
export const databaseVolume = core.databaseVolume?.name;
