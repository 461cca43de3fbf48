import { z } from 'zod';
import { sourceCommands, type SettingFlagOf } from './setting-flag.js';
import { optionalText, textList } from './setting-values.js';

/** The old system's roles: where a record keeps them, their renames and permissions, and whether users get them. */
export const roleSettings = {
  /** Give users their roles of the old system (`--no-roles` turns it off). */
  roles: z.boolean().default(true),
  /** Where a record's roles are: a dotted path into the record as read; unset: no roles are read. */
  rolesFrom: optionalText,
  /** `old=new` renames of roles (`old=` leaves one out). */
  roleMap: textList,
  /** JSON: role → permissions. */
  rolesFile: optionalText,
  /** A role already on the core with other permissions gets the file's added (default: reported, not changed). */
  rolesUpdate: z.boolean().default(false),
};

export const roleFlags: readonly SettingFlagOf<keyof typeof roleSettings>[] = [
  {
    key: 'rolesFrom',
    flag: '--roles-from',
    value: '<path>',
    label: 'roles path',
    group: 'identity',
    kind: { type: 'text' },
    help: 'where a record keeps its roles, e.g. customClaims.roles, appMetadata.roles or roles (plan shows what it found)',
    commands: sourceCommands,
  },
  {
    key: 'roleMap',
    flag: '--role-map',
    value: '<old=new>',
    label: 'role renames',
    group: 'identity',
    kind: { type: 'list' },
    help: 'rename a role, e.g. --role-map editors=editor; old= leaves it out (repeatable)',
    commands: sourceCommands,
  },
  {
    key: 'rolesFile',
    flag: '--roles-file',
    value: '<file>',
    label: 'permissions file',
    group: 'identity',
    kind: { type: 'path' },
    help: 'JSON of role -> permissions; roles outside it are reported, not given',
    commands: sourceCommands,
  },
  {
    key: 'rolesUpdate',
    flag: '--roles-update',
    label: 'update role permissions',
    group: 'identity',
    kind: { type: 'switch' },
    help: "add the file's permissions to a role already on the core (default: reported, not changed)",
    commands: ['push'],
  },
  {
    key: 'roles',
    flag: '--no-roles',
    label: 'give roles',
    group: 'identity',
    kind: { type: 'negatable' },
    help: 'do not create roles or give users their roles',
    commands: ['push'],
  },
];
