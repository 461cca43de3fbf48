import * as pulumi from '@pulumi/pulumi';
import { AuthCore, dockerEngineSettings } from './auth-core.js';
import { CONFIG_NAMESPACE, CORE_PORT, StackConfigError, configWarnings } from './config.js';
import { loadStackConfig } from './load-config.js';
import { LoginMigrationService } from './login-service.js';

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

// The login-time migration service, when asked for: beside the first core, on its network, reaching it by name.
const firstCore = core.coreContainers[0];
const loginService =
  config.loginService && config.loginServiceImage !== undefined && config.loginServiceKey !== undefined && firstCore !== undefined
    ? new LoginMigrationService('login-migration', {
        image: config.loginServiceImage,
        serviceKey: config.loginServiceKey,
        coreApiKey: config.apiKey,
        coreUrl: pulumi.interpolate`http://${firstCore.name}:${CORE_PORT}`,
        networkName: core.network.name,
        bindAddress: config.bindAddress,
        hostPort: config.loginServicePort,
        storeUrl: config.loginServiceStoreUrl,
        protectStore: config.protectDatabase,
        dependsOn: [firstCore],
      })
    : undefined;

// The outputs core-client's connection step reads (`pulumi stack output --json --show-secrets`), typed by its schema.
export const { coreUrl, coreUrls, apiKey, signerKeyConfigured, database } = core.outputs;
// For the operator: `docker logs <name>`, and the volume to remove by hand once it is really to go.
export const coreContainerNames = pulumi.all(core.coreContainers.map((container) => container.name));
export const coreContainerName = coreContainerNames.apply((names) => names[0]);
export const databaseVolume = core.databaseVolume?.name;
// Where the backend asks at sign-in (with the service's key), the container's name, and the SQLite store's volume.
export const loginServiceUrl = loginService?.url;
export const loginServiceContainerName = loginService?.container.name;
export const loginStoreVolume = loginService?.storeVolume?.name;
