import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import pg from 'pg';

/**
 * The tables of two old systems, made in a test's own database from their documented shapes (no code or schema file
 * of theirs): Supabase Auth's `auth.users` and `auth.identities` (Supabase's "Auth schema" and "Identities" docs: the
 * columns a project has today, with the defaults and NOT NULLs that matter here), and Better Auth's `user` and
 * `account` tables (its "Database" concept page: the core schema, and the columns the admin, username, phone-number
 * and anonymous plugins add), in the column names of its own adapter (camelCase) or of a snake_case schema.
 */

export const SUPABASE_SCHEMA = `
CREATE SCHEMA auth;
CREATE TABLE auth.users (
  instance_id uuid,
  id uuid PRIMARY KEY,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  recovery_token varchar(255),
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text UNIQUE DEFAULT NULL,
  phone_confirmed_at timestamptz,
  banned_until timestamptz,
  is_sso_user boolean NOT NULL DEFAULT false,
  deleted_at timestamptz,
  is_anonymous boolean NOT NULL DEFAULT false
);
CREATE TABLE auth.identities (
  provider_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES auth.users(id) ON DELETE CASCADE,
  identity_data jsonb NOT NULL,
  provider text NOT NULL,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text GENERATED ALWAYS AS (lower(identity_data->>'email')) STORED,
  id uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  UNIQUE (provider_id, provider)
);`;

export interface SupabaseRow {
  id: string;
  email?: string;
  encrypted_password?: string;
  email_confirmed_at?: string;
  phone?: string;
  phone_confirmed_at?: string;
  raw_app_meta_data?: Record<string, unknown>;
  raw_user_meta_data?: Record<string, unknown>;
  banned_until?: string;
  deleted_at?: string;
  is_anonymous?: boolean;
  is_sso_user?: boolean;
  created_at?: string;
  last_sign_in_at?: string;
  identities?: Array<{ provider: string; provider_id: string; identity_data: Record<string, unknown> }>;
}

const SUPABASE_USER_COLUMNS = [
  'id',
  'email',
  'encrypted_password',
  'email_confirmed_at',
  'phone',
  'phone_confirmed_at',
  'raw_app_meta_data',
  'raw_user_meta_data',
  'banned_until',
  'deleted_at',
  'is_anonymous',
  'is_sso_user',
  'created_at',
  'last_sign_in_at',
] as const;

/** Inserts users (and their identities) as Supabase Auth writes them: `aud` and `role` "authenticated", '' tokens. */
export async function insertSupabaseUsers(client: pg.ClientBase, rows: readonly SupabaseRow[]): Promise<void> {
  for (const row of rows) {
    const values = SUPABASE_USER_COLUMNS.map((column) => {
      const value = row[column];
      if (value === undefined) return column === 'is_anonymous' || column === 'is_sso_user' ? false : null;
      return typeof value === 'object' ? JSON.stringify(value) : value;
    });
    const placeholders = SUPABASE_USER_COLUMNS.map((_, index) => `$${index + 1}`).join(', ');
    await client.query(
      `INSERT INTO auth.users (aud, role, confirmation_token, recovery_token, ${SUPABASE_USER_COLUMNS.join(', ')}) VALUES ('authenticated', 'authenticated', '', '', ${placeholders})`,
      values,
    );
    for (const identity of row.identities ?? []) {
      await client.query('INSERT INTO auth.identities (provider_id, user_id, identity_data, provider) VALUES ($1, $2, $3, $4)', [
        identity.provider_id,
        row.id,
        JSON.stringify(identity.identity_data),
        identity.provider,
      ]);
    }
  }
}

export type BetterAuthNaming = 'camel' | 'snake';

/** The field names of Better Auth's tables, and what a snake_case schema calls each. */
const SNAKE: Record<string, string> = {
  emailVerified: 'email_verified',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  banExpires: 'ban_expires',
  banReason: 'ban_reason',
  displayUsername: 'display_username',
  phoneNumber: 'phone_number',
  phoneNumberVerified: 'phone_number_verified',
  isAnonymous: 'is_anonymous',
  userId: 'user_id',
  accountId: 'account_id',
  providerId: 'provider_id',
  accessToken: 'access_token',
};

export interface BetterAuthSchemaOptions {
  naming: BetterAuthNaming;
  /** `usePlural`: the tables are `users` and `accounts`. */
  plural?: boolean;
  /** The plugins' columns (admin, username, phone number, anonymous); without them, the core schema alone. */
  plugins?: boolean;
  /** Columns left out of the user table, to see them named. */
  without?: readonly string[];
  /** For SQLite: types as its adapter writes them (integers for booleans, text for dates). */
  dialect: 'postgres' | 'sqlite';
}

export function betterAuthNames(options: Pick<BetterAuthSchemaOptions, 'naming' | 'plural'>): {
  user: string;
  account: string;
  column: (field: string) => string;
} {
  return {
    user: options.plural === true ? 'users' : 'user',
    account: options.plural === true ? 'accounts' : 'account',
    column: (field) => (options.naming === 'snake' ? (SNAKE[field] ?? field) : field),
  };
}

export function betterAuthSchema(options: BetterAuthSchemaOptions): string {
  const names = betterAuthNames(options);
  const c = (field: string): string => `"${names.column(field)}"`;
  const bool = options.dialect === 'postgres' ? 'boolean' : 'integer';
  const time = options.dialect === 'postgres' ? 'timestamptz' : 'date';
  const userColumns = [
    `${c('id')} text PRIMARY KEY`,
    `${c('name')} text NOT NULL`,
    `${c('email')} text NOT NULL UNIQUE`,
    `${c('emailVerified')} ${bool} NOT NULL`,
    `${c('image')} text`,
    `${c('createdAt')} ${time} NOT NULL`,
    `${c('updatedAt')} ${time} NOT NULL`,
    ...(options.plugins === true
      ? [
          `${c('role')} text`,
          `${c('banned')} ${bool}`,
          `${c('banReason')} text`,
          `${c('banExpires')} ${time}`,
          `${c('username')} text UNIQUE`,
          `${c('displayUsername')} text`,
          `${c('phoneNumber')} text UNIQUE`,
          `${c('phoneNumberVerified')} ${bool}`,
          `${c('isAnonymous')} ${bool}`,
        ]
      : []),
  ].filter((column) => !(options.without ?? []).some((field) => column.startsWith(`"${names.column(field)}"`)));
  return `
CREATE TABLE "${names.user}" (${userColumns.join(', ')});
CREATE TABLE "${names.account}" (
  ${c('id')} text PRIMARY KEY,
  ${c('accountId')} text NOT NULL,
  ${c('providerId')} text NOT NULL,
  ${c('userId')} text NOT NULL REFERENCES "${names.user}"(${c('id')}) ON DELETE CASCADE,
  ${c('accessToken')} text,
  ${c('password')} text,
  ${c('createdAt')} ${time} NOT NULL,
  ${c('updatedAt')} ${time} NOT NULL
);`;
}

export interface BetterAuthUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | string;
  image?: string;
  createdAt: string;
  role?: string;
  banned?: boolean;
  banExpires?: string;
  username?: string;
  displayUsername?: string;
  phoneNumber?: string;
  phoneNumberVerified?: boolean;
  isAnonymous?: boolean;
  accounts?: Array<{ id: string; providerId: string; accountId: string; password?: string }>;
}

type Value = string | number | boolean | null;

/** The rows as insert statements with their values, the same for both databases (SQLite takes 0/1 for booleans). */
function betterAuthInserts(options: BetterAuthSchemaOptions, users: readonly BetterAuthUser[]): Array<{ sql: string; values: Value[] }> {
  const names = betterAuthNames(options);
  const value = (input: unknown): Value => {
    if (input === undefined || input === null) return null;
    if (typeof input === 'boolean') return options.dialect === 'sqlite' ? (input ? 1 : 0) : input;
    return input as Value;
  };
  const statements: Array<{ sql: string; values: Value[] }> = [];
  const insert = (table: string, row: Record<string, unknown>): void => {
    const fields = Object.keys(row).filter((field) => row[field] !== undefined);
    const placeholders = fields.map((_, index) => (options.dialect === 'postgres' ? `$${index + 1}` : '?'));
    statements.push({
      sql: `INSERT INTO "${table}" (${fields.map((field) => `"${names.column(field)}"`).join(', ')}) VALUES (${placeholders.join(', ')})`,
      values: fields.map((field) => value(row[field])),
    });
  };
  for (const user of users) {
    const { accounts, ...row } = user;
    insert(names.user, { ...row, updatedAt: user.createdAt });
    for (const account of accounts ?? []) insert(names.account, { ...account, userId: user.id, createdAt: user.createdAt, updatedAt: user.createdAt });
  }
  return statements;
}

export async function createBetterAuthPostgres(
  client: pg.ClientBase,
  options: Omit<BetterAuthSchemaOptions, 'dialect'>,
  users: readonly BetterAuthUser[],
): Promise<void> {
  const full = { ...options, dialect: 'postgres' as const };
  await client.query(betterAuthSchema(full));
  for (const statement of betterAuthInserts(full, users)) await client.query(statement.sql, statement.values);
}

export function createBetterAuthSqlite(file: string, options: Omit<BetterAuthSchemaOptions, 'dialect'>, users: readonly BetterAuthUser[]): void {
  const full = { ...options, dialect: 'sqlite' as const };
  const database = new DatabaseSync(file);
  try {
    database.exec(betterAuthSchema(full));
    for (const statement of betterAuthInserts(full, users)) database.prepare(statement.sql).run(...(statement.values as SQLInputValue[]));
  } finally {
    database.close();
  }
}

/** A client of the test's database (the URL carries the test server's own password). */
export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // A server stopped under a connection a failed test left open must not end the test run.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** The URL without its password, as an operator gives it (the password then comes from PGPASSWORD). */
export function withoutPassword(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: { ...process.env, PGPASSWORD: password } };
}
