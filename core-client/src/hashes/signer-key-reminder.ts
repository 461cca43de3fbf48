import { FIELD_SIGNER_KEY_CONFIG_NAME, FIELD_SIGNER_KEY_ENV, SIGNER_KEY_CONFIG_NAME, SIGNER_KEY_ENV } from '../contract/names.js';

/** What the operator must do on the core before vendor scrypt users can be imported (the key itself is not shown). */
export function signerKeyReminder(): string {
  return (
    `the core must be configured with the provider's base64_signer_key before these users are imported: ` +
    `${SIGNER_KEY_ENV} for a container, ${SIGNER_KEY_CONFIG_NAME} in config.yaml or the managed service ` +
    `(a core in the field names it ${FIELD_SIGNER_KEY_ENV} and ${FIELD_SIGNER_KEY_CONFIG_NAME})`
  );
}
