import supertokens, { type User } from 'supertokens-node';
import { CollectingResponse, PreParsedRequest, middleware } from 'supertokens-node/framework/custom';
import EmailPassword from 'supertokens-node/recipe/emailpassword';
import EmailVerification from 'supertokens-node/recipe/emailverification';
import Passwordless from 'supertokens-node/recipe/passwordless';
import Session, { type SessionContainer } from 'supertokens-node/recipe/session';
import ThirdParty from 'supertokens-node/recipe/thirdparty';
import UserMetadata from 'supertokens-node/recipe/usermetadata';
import UserRoles from 'supertokens-node/recipe/userroles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreDouble, startCoreDouble } from './index.js';
import { RecordedPairing, comparable, loadSdkFlows, passwordFor } from '../support/sdk-flows.js';

/**
 * The official Node SDK (supertokens-node 21.1.2, framework `custom`, the recipes the recording used) against the core
 * double over HTTP on 127.0.0.1: the nine flows of test/fixtures/core-transcripts/sdk-flows.json, call by call. Each
 * call must make the core calls the SDK made against the real core 10.0.7 (method and path, in order) and return what
 * it returned there (`sdkCalls`), ids, tokens and times paired as in sdk-flows.test.ts. The SDK keeps process-wide
 * state (`init` once, its API version and JWKS caches), so this file runs in a worker of its own (vitest.config.ts).
 */
const API_KEY = 'supertokens-node-api-key-0123456789';
const flows = loadSdkFlows();
const recordedCalls = flows.sdkCalls.memory;
const recordedExchanges = flows.storages.memory;
// The recording's application: its domains are in what the core was sent (the tokens' `iss`, `/apiversion`'s query).
const API_DOMAIN = 'http://127.0.0.1:3999';
const WEBSITE_DOMAIN = 'http://127.0.0.1:3998';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000077';

const password = (name: string): string => passwordFor(`<password "${name}": ${passwordLengths.get(name) ?? 16} chars>`) ?? name;
/** Each password's length as the recording gives it (the double's passwords are made from the placeholders, as sdk-flows.test.ts makes them). */
const passwordLengths = new Map(
  [...JSON.stringify(flows.storages.memory).matchAll(/<password \\"([^\\]+)\\": (\d+) chars>/g)].map((match) => [match[1] ?? '', Number(match[2])]),
);

/** What an SDK call gave, in the recording's form: class instances as their JSON, a recipe user id as its string, undefined as null. */
function plain(value: unknown): unknown {
  const text = JSON.stringify(value ?? null, (_key, item: unknown) => (item instanceof supertokens.RecipeUserId ? item.getAsString() : (item ?? null)));
  return JSON.parse(text) as unknown;
}

const userSummary = (user: User) => ({
  id: user.id,
  isPrimaryUser: user.isPrimaryUser,
  emails: user.emails,
  loginMethods: user.loginMethods.map((method) => ({
    recipeId: method.recipeId,
    recipeUserId: method.recipeUserId.getAsString(),
    email: method.email,
    verified: method.verified,
  })),
});

type SignResult = { status: 'OK'; user: User; recipeUserId: supertokens.RecipeUserId } | { status: string };
function signResult(result: SignResult): unknown {
  return 'user' in result ? { status: result.status, user: userSummary(result.user), recipeUserId: result.recipeUserId.getAsString() } : plain(result);
}

const sessionSummary = (session: SessionContainer) => ({
  session: { handle: session.getHandle(), userId: session.getUserId(), recipeUserId: session.getRecipeUserId().getAsString(), tenantId: session.getTenantId() },
});

const mails: { type: string; link: string }[] = [];

/** The SDK's own API route, through its `custom` framework's middleware, as an application's HTTP server would call it. */
async function callApi(path: string, body: unknown): Promise<unknown> {
  const request = new PreParsedRequest({
    url: `${API_DOMAIN}${path}`,
    method: 'post',
    headers: new Headers({ 'content-type': 'application/json', origin: WEBSITE_DOMAIN }),
    cookies: {},
    query: {},
    getJSONBody: () => Promise.resolve(body),
    getFormBody: () => Promise.resolve({}),
  });
  const response = new CollectingResponse();
  const result = await middleware()(request, response);
  return {
    handled: result.handled ?? false,
    error: result.error ?? null,
    httpStatus: response.statusCode,
    body: JSON.parse(response.body ?? 'null') as unknown,
  };
}

function tokenOfLastMail(type: string): string {
  const mail = mails.findLast((candidate) => candidate.type === type);
  const token = mail === undefined ? null : new URL(mail.link).searchParams.get('token');
  if (token === null) throw new Error(`no ${type} mail with a token was sent`);
  return token;
}

let double: CoreDouble;
const state = {
  adaId: '',
  graceId: '',
  graceRecipeUserId: '',
  tempId: '',
  handle: '',
  accessTokens: [] as string[],
  refreshTokens: [] as string[],
  resetTokens: [] as string[],
  verifyToken: '',
};
const ada = () => supertokens.convertToRecipeUserId(state.adaId);

function keepSession(session: SessionContainer): unknown {
  const tokens = session.getAllSessionTokensDangerously();
  state.handle = session.getHandle();
  state.accessTokens.push(tokens.accessToken);
  if (tokens.refreshToken !== undefined) state.refreshTokens.push(tokens.refreshToken);
  return sessionSummary(session);
}

async function signUp(email: string, name: string): Promise<unknown> {
  const result = await EmailPassword.signUp('public', email, password(name));
  return signResult(result);
}

/** Each flow's calls, in the recording's order and under its step names. */
const FLOWS: Record<string, [step: string, run: () => Promise<unknown>][]> = {
  '1 signUp': [
    [
      'signUp new email',
      async () => {
        const result = await EmailPassword.signUp('public', 'ada@example.com', password('first'));
        if (result.status === 'OK') state.adaId = result.user.id;
        return signResult(result);
      },
    ],
    ['signUp same email again', () => signUp('ada@example.com', 'first')],
  ],
  '2 signIn': [
    ['signIn right password', async () => signResult(await EmailPassword.signIn('public', 'ada@example.com', password('first')))],
    ['signIn wrong password', async () => signResult(await EmailPassword.signIn('public', 'ada@example.com', password('wrong')))],
    ['signIn unknown email', async () => signResult(await EmailPassword.signIn('public', 'nobody@example.com', password('first')))],
  ],
  '3 password reset': [
    [
      'createResetPasswordToken known user',
      async () => {
        const result = await EmailPassword.createResetPasswordToken('public', state.adaId, 'ada@example.com');
        if (result.status === 'OK') state.resetTokens.push(result.token);
        return plain(result);
      },
    ],
    ['createResetPasswordToken unknown user id', async () => plain(await EmailPassword.createResetPasswordToken('public', UNKNOWN_ID, 'nobody@example.com'))],
    [
      'resetPasswordUsingToken with the token',
      async () => plain(await EmailPassword.resetPasswordUsingToken('public', state.resetTokens[0] ?? '', password('reset'))),
    ],
    [
      'resetPasswordUsingToken with the used token',
      async () => plain(await EmailPassword.resetPasswordUsingToken('public', state.resetTokens[0] ?? '', password('again'))),
    ],
    [
      'createResetPasswordToken second token',
      async () => {
        const result = await EmailPassword.createResetPasswordToken('public', state.adaId, 'ada@example.com');
        if (result.status === 'OK') state.resetTokens.push(result.token);
        return plain(result);
      },
    ],
    ['consumePasswordResetToken with the token', async () => plain(await EmailPassword.consumePasswordResetToken('public', state.resetTokens[1] ?? ''))],
    ['consumePasswordResetToken with the used token', async () => plain(await EmailPassword.consumePasswordResetToken('public', state.resetTokens[1] ?? ''))],
    ['signIn with the new password', async () => signResult(await EmailPassword.signIn('public', 'ada@example.com', password('reset')))],
    ['signIn with the old password', async () => signResult(await EmailPassword.signIn('public', 'ada@example.com', password('first')))],
    [
      'API: POST /auth/user/password/reset/token, unknown email',
      () => callApi('/auth/user/password/reset/token', { formFields: [{ id: 'email', value: 'nobody@example.com' }] }),
    ],
    ['signUp bob (for the API reset)', () => signUp('bob@example.com', 'bob')],
    [
      'API: POST /auth/user/password/reset/token, known email',
      () => callApi('/auth/user/password/reset/token', { formFields: [{ id: 'email', value: 'bob@example.com' }] }),
    ],
    [
      'API: POST /auth/user/password/reset with the emailed token',
      () =>
        callApi('/auth/user/password/reset', {
          method: 'token',
          token: tokenOfLastMail('PASSWORD_RESET'),
          formFields: [{ id: 'password', value: password('bobNew') }],
        }),
    ],
    ['signIn bob with the new password', async () => signResult(await EmailPassword.signIn('public', 'bob@example.com', password('bobNew')))],
  ],
  '4 updateEmailOrPassword': [
    ['set a password for an existing user', async () => plain(await EmailPassword.updateEmailOrPassword({ recipeUserId: ada(), password: password('set') }))],
    ['signIn with the set password', async () => signResult(await EmailPassword.signIn('public', 'ada@example.com', password('set')))],
    [
      'set a password for an unknown recipe user id',
      async () => plain(await EmailPassword.updateEmailOrPassword({ recipeUserId: supertokens.convertToRecipeUserId(UNKNOWN_ID), password: password('set') })),
    ],
    ['change email to one another user has', async () => plain(await EmailPassword.updateEmailOrPassword({ recipeUserId: ada(), email: 'bob@example.com' }))],
  ],
  '5 user id mapping': [
    [
      'signUp grace',
      async () => {
        const result = await EmailPassword.signUp('public', 'grace@example.com', password('grace'));
        if (result.status === 'OK') state.graceId = result.user.id;
        return signResult(result);
      },
    ],
    [
      'createUserIdMapping grace -> legacy-77',
      async () => plain(await supertokens.createUserIdMapping({ superTokensUserId: state.graceId, externalUserId: 'legacy-77' })),
    ],
    [
      'createUserIdMapping the same again',
      async () => plain(await supertokens.createUserIdMapping({ superTokensUserId: state.graceId, externalUserId: 'legacy-77' })),
    ],
    [
      'createUserIdMapping another user -> legacy-77',
      async () => plain(await supertokens.createUserIdMapping({ superTokensUserId: state.adaId, externalUserId: 'legacy-77' })),
    ],
    [
      'createUserIdMapping unknown SuperTokens user',
      async () => plain(await supertokens.createUserIdMapping({ superTokensUserId: UNKNOWN_ID, externalUserId: 'legacy-99' })),
    ],
    ['getUserIdMapping by SuperTokens id', async () => plain(await supertokens.getUserIdMapping({ userId: state.graceId, userIdType: 'SUPERTOKENS' }))],
    ['getUserIdMapping by external id', async () => plain(await supertokens.getUserIdMapping({ userId: 'legacy-77', userIdType: 'EXTERNAL' }))],
    ['getUserIdMapping by external id, type ANY', async () => plain(await supertokens.getUserIdMapping({ userId: 'legacy-77', userIdType: 'ANY' }))],
    ['getUserIdMapping unknown id', async () => plain(await supertokens.getUserIdMapping({ userId: 'legacy-99', userIdType: 'ANY' }))],
    [
      'signIn mapped user',
      async () => {
        const result = await EmailPassword.signIn('public', 'grace@example.com', password('grace'));
        if ('recipeUserId' in result) state.graceRecipeUserId = result.recipeUserId.getAsString();
        return signResult(result);
      },
    ],
    ['getUser by external id', async () => plain(await supertokens.getUser('legacy-77'))],
    [
      'session for the mapped user',
      async () => sessionSummary(await Session.createNewSessionWithoutRequestResponse('public', supertokens.convertToRecipeUserId(state.graceRecipeUserId))),
    ],
    [
      'deleteUserIdMapping while the mapped user has a session',
      async () => plain(await supertokens.deleteUserIdMapping({ userId: 'legacy-77', userIdType: 'EXTERNAL' })),
    ],
    ['revokeAllSessionsForUser mapped user', async () => plain(await Session.revokeAllSessionsForUser('legacy-77'))],
    ['deleteUserIdMapping by external id', async () => plain(await supertokens.deleteUserIdMapping({ userId: 'legacy-77', userIdType: 'EXTERNAL' }))],
    ['deleteUserIdMapping again', async () => plain(await supertokens.deleteUserIdMapping({ userId: 'legacy-77', userIdType: 'EXTERNAL' }))],
    ['signIn after the mapping is deleted', async () => signResult(await EmailPassword.signIn('public', 'grace@example.com', password('grace')))],
  ],
  '6 session': [
    ['createNewSessionWithoutRequestResponse', async () => keepSession(await Session.createNewSessionWithoutRequestResponse('public', ada()))],
    [
      'getSessionWithoutRequestResponse (local JWT check)',
      async () => sessionSummary(await Session.getSessionWithoutRequestResponse(state.accessTokens[0] ?? '')),
    ],
    [
      'getSessionWithoutRequestResponse checkDatabase',
      async () => sessionSummary(await Session.getSessionWithoutRequestResponse(state.accessTokens[0] ?? '', undefined, { checkDatabase: true })),
    ],
    ['getSessionInformation', async () => plain(await Session.getSessionInformation(state.handle))],
    ['refreshSessionWithoutRequestResponse', async () => keepSession(await Session.refreshSessionWithoutRequestResponse(state.refreshTokens[0] ?? ''))],
    [
      'getSessionWithoutRequestResponse checkDatabase, refreshed token',
      async () => sessionSummary(await Session.getSessionWithoutRequestResponse(state.accessTokens[1] ?? '', undefined, { checkDatabase: true })),
    ],
    ['getJWKS', async () => plain(await Session.getJWKS())],
    ['revokeSession', () => Session.revokeSession(state.handle)],
    ['revokeSession again', () => Session.revokeSession(state.handle)],
    [
      'getSessionWithoutRequestResponse checkDatabase, revoked session',
      async () => sessionSummary(await Session.getSessionWithoutRequestResponse(state.accessTokens[1] ?? '', undefined, { checkDatabase: true })),
    ],
    [
      'refreshSessionWithoutRequestResponse, revoked session',
      async () => sessionSummary(await Session.refreshSessionWithoutRequestResponse(state.refreshTokens[1] ?? '')),
    ],
    ['getSessionInformation, revoked session', async () => plain(await Session.getSessionInformation(state.handle))],
  ],
  '7 email verification': [
    ['isEmailVerified before', () => EmailVerification.isEmailVerified(ada(), 'ada@example.com')],
    [
      'createEmailVerificationToken',
      async () => {
        const result = await EmailVerification.createEmailVerificationToken('public', ada(), 'ada@example.com');
        if (result.status === 'OK') state.verifyToken = result.token;
        return plain(result);
      },
    ],
    ['verifyEmailUsingToken', async () => plain(await EmailVerification.verifyEmailUsingToken('public', state.verifyToken))],
    ['verifyEmailUsingToken with the used token', async () => plain(await EmailVerification.verifyEmailUsingToken('public', state.verifyToken))],
    ['isEmailVerified after', () => EmailVerification.isEmailVerified(ada(), 'ada@example.com')],
    ['createEmailVerificationToken when verified', async () => plain(await EmailVerification.createEmailVerificationToken('public', ada(), 'ada@example.com'))],
    ['unverifyEmail', async () => plain(await EmailVerification.unverifyEmail(ada(), 'ada@example.com'))],
    ['isEmailVerified after unverify', () => EmailVerification.isEmailVerified(ada(), 'ada@example.com')],
  ],
  '8 users': [
    ['listUsersByAccountInfo found', async () => (await supertokens.listUsersByAccountInfo('public', { email: 'ada@example.com' })).map(userSummary)],
    ['listUsersByAccountInfo not found', async () => (await supertokens.listUsersByAccountInfo('public', { email: 'nobody@example.com' })).map(userSummary)],
    ['getUser found', async () => plain(await supertokens.getUser(state.adaId))],
    ['getUser not found', async () => plain(await supertokens.getUser(UNKNOWN_ID))],
    [
      'signUp temp (to delete)',
      async () => {
        const result = await EmailPassword.signUp('public', 'temp@example.com', password('temp'));
        if (result.status === 'OK') state.tempId = result.user.id;
        return signResult(result);
      },
    ],
    ['deleteUser', async () => plain(await supertokens.deleteUser(state.tempId))],
    ['getUser deleted user', async () => plain(await supertokens.getUser(state.tempId))],
    ['listUsersByAccountInfo deleted user', async () => (await supertokens.listUsersByAccountInfo('public', { email: 'temp@example.com' })).map(userSummary)],
    ['deleteUser unknown id', async () => plain(await supertokens.deleteUser(UNKNOWN_ID))],
  ],
  '9 metadata and roles': [
    ['updateUserMetadata', async () => plain(await UserMetadata.updateUserMetadata(state.adaId, { legacy: { source: 'old-db', plan: 'pro' }, locale: 'en' }))],
    ['updateUserMetadata remove a key', async () => plain(await UserMetadata.updateUserMetadata(state.adaId, { locale: null }))],
    ['getUserMetadata', async () => plain(await UserMetadata.getUserMetadata(state.adaId))],
    ['getUserMetadata user without metadata', async () => plain(await UserMetadata.getUserMetadata(UNKNOWN_ID))],
    ['createNewRoleOrAddPermissions new role', async () => plain(await UserRoles.createNewRoleOrAddPermissions('admin', ['read', 'write']))],
    ['createNewRoleOrAddPermissions existing role', async () => plain(await UserRoles.createNewRoleOrAddPermissions('admin', ['delete']))],
    ['addRoleToUser', async () => plain(await UserRoles.addRoleToUser('public', state.adaId, 'admin'))],
    ['addRoleToUser again', async () => plain(await UserRoles.addRoleToUser('public', state.adaId, 'admin'))],
    ['addRoleToUser unknown role', async () => plain(await UserRoles.addRoleToUser('public', state.adaId, 'no-such-role'))],
    ['getRolesForUser', async () => plain(await UserRoles.getRolesForUser('public', state.adaId))],
    ['getPermissionsForRole', async () => plain(await UserRoles.getPermissionsForRole('admin'))],
  ],
};

describe('the official Node SDK against the core double', () => {
  beforeAll(async () => {
    double = await startCoreDouble({ apiKeys: [API_KEY], storage: 'memory' });
    const capture = {
      sendEmail: (input: { type: string; passwordResetLink?: string; emailVerifyLink?: string }) => {
        mails.push({ type: input.type, link: input.passwordResetLink ?? input.emailVerifyLink ?? '' });
        return Promise.resolve();
      },
    };
    supertokens.init({
      framework: 'custom',
      supertokens: { connectionURI: double.url, apiKey: API_KEY },
      appInfo: { appName: 'core-migrate tests', apiDomain: API_DOMAIN, websiteDomain: WEBSITE_DOMAIN, apiBasePath: '/auth', websiteBasePath: '/auth' },
      recipeList: [
        EmailPassword.init({ emailDelivery: { override: (original) => ({ ...original, ...capture }) } }),
        EmailVerification.init({ mode: 'OPTIONAL', emailDelivery: { override: (original) => ({ ...original, ...capture }) } }),
        Passwordless.init({ contactMethod: 'EMAIL_OR_PHONE', flowType: 'USER_INPUT_CODE' }),
        ThirdParty.init({ signInAndUpFeature: { providers: [] } }),
        UserRoles.init(),
        UserMetadata.init(),
        Session.init(),
      ],
    });
  });
  afterAll(() => double?.close());

  it.each(Object.keys(FLOWS))('%s: each call makes the recorded core calls and returns what it returned on the real core', async (flow) => {
    const steps = FLOWS[flow] ?? [];
    expect(steps.map(([step]) => step)).toEqual(recordedCalls.filter((call) => call.flow === flow).map((call) => call.step));
    const pairing = new RecordedPairing();
    const differences: string[] = [];
    for (const [step, run] of steps) {
      const recorded = recordedCalls.find((call) => call.flow === flow && call.step === step);
      const before = double.requestCount();
      let outcome: { result: unknown } | { threw: { type: string; message: string } };
      try {
        outcome = { result: await run() };
      } catch (error) {
        outcome = { threw: thrown(error) };
      }
      const made = double
        .requests()
        .filter((request) => request.number > before)
        .map((request) => `${request.method} ${request.path.split('?')[0] ?? ''}`);
      const expectedCalls = recordedExchanges
        .filter((exchange) => exchange.flow === flow && exchange.step === step)
        .map((exchange) => `${exchange.method} ${exchange.path}`);
      if (!isDeepEqual(made, expectedCalls)) differences.push(`${step}: core calls\n  recorded ${expectedCalls.join(', ')}\n  made     ${made.join(', ')}`);
      const expected = recorded?.threw !== undefined ? { threw: recorded.threw } : { result: recorded?.result ?? null };
      pairing.learn(expected, outcome);
      const [want, got] = [comparable(expected), comparable(pairing.toRecorded(outcome))];
      if (!isDeepEqual(want, got)) differences.push(`${step}: ${recorded?.call ?? ''}\n  recorded ${JSON.stringify(want)}\n  returned ${JSON.stringify(got)}`);
    }
    expect(differences.join('\n')).toBe('');
  });
});

function thrown(error: unknown): { type: string; message: string } {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const type = 'type' in error && typeof error.type === 'string' ? error.type : error.name;
  return { type, message: error.message };
}

function isDeepEqual(left: unknown, right: unknown): boolean {
  try {
    expect(right).toEqual(left);
    return true;
  } catch {
    return false;
  }
}
