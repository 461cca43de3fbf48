import * as pulumi from '@pulumi/pulumi';
import { AuthCore, dockerEngineSettings } from './auth-core.js';
import { CORE_PORT } from './config.js';
import type { ProgramConfig } from './load-config.js';
import { LoginMigrationService } from './login-service.js';

/** The Docker target from a validated config: the cores (and PostgreSQL) on one engine, and the login-time service. */
export function dockerProgram(config: ProgramConfig) {
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
          verifyWith: config.loginServiceVerifyWith,
          verifyWithSecret: config.loginServiceVerifyWithSecret,
          protectStore: config.protectDatabase,
          dependsOn: [firstCore],
        })
      : undefined;

  const coreContainerNames = pulumi.all(core.coreContainers.map((container) => container.name));
  return {
    outputs: core.outputs,
    coreContainerNames,
    coreContainerName: coreContainerNames.apply((names) => names[0]),
    databaseVolume: core.databaseVolume?.name,
    loginServiceUrl: loginService?.url,
    loginServiceContainerName: loginService?.container.name,
    loginStoreVolume: loginService?.storeVolume?.name,
  };
}
