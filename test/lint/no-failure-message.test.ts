import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';
import { noFailureMessage } from '../../lint/no-failure-message.js';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const fixtures = fileURLToPath(new URL('fixtures/', import.meta.url));
const tester = new RuleTester({
  languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: fixtures } },
});
const filename = 'file.ts';

// core-client's Problem, as far as the rule is concerned: a class that extends Error.
const problem = `class Problem extends Error { constructor(readonly code: string) { super(code); } }
declare function detect(): Problem | { format: string };`;

const reported = (code: string) => ({ name: code, code: `${problem}\n${code}`, filename, errors: [{ messageId: 'failureMessage' as const }] });
const allowed = (code: string) => ({ name: code, code: `${problem}\n${code}`, filename });

tester.run('no-failure-message', noFailureMessage, {
  valid: [
    allowed(`declare const event: { message: string }; event.message;`),
    allowed(`declare const problem: Problem; problem.code;`),
    allowed(`const found = detect(); if (!(found instanceof Problem)) found.format;`),
    allowed(`declare const line: { message: string; setting?: string }; const { message } = line;`),
    // A class of the project that is merely named Error is not the standard one.
    allowed(`namespace own { export class Error { message = ''; } } new own.Error().message;`),
  ],
  invalid: [
    reported(`declare const problem: Problem; problem.message;`),
    reported(`declare const problem: Problem | undefined; problem?.message;`),
    reported(`declare const problem: Problem; problem['message'];`),
    reported(`const found = detect(); if (found instanceof Problem) found.message;`),
    reported(`try { detect(); } catch (error) { if (error instanceof Error) error.message; }`),
    reported(`try { detect(); } catch (error) { String(error instanceof Problem ? error.message : error); }`),
    reported(`declare const problem: Problem; const { message } = problem;`),
    reported(`function words({ message }: Problem): string { return message; }`),
    reported(`declare const failed: Problem | string; if (typeof failed !== 'string') failed.message;`),
    reported(`function words<F extends Error>(failure: F): string { return failure.message; }`),
    reported(`declare const system: Error & { code?: string }; system.message;`),
  ],
});
