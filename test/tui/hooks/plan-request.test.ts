import { link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../../core-client/src/secret.js';
import { parseHashConfig } from '../../../core-client/src/hashes/hash-config.js';
import { completePath } from '../../../tui/src/hooks/path-completion.js';
import { hashConfigFromForm, planRequestFrom } from '../../../tui/src/hooks/plan-request.js';
import { hashParametersPath, resumeCommandFor, saveHashParameters } from '../../../tui/src/hooks/resume-command.js';
import { initialWalkState, walkReducer, type WalkAction } from '../../../tui/src/screens/walk-state.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-hooks-'));
  await mkdir(join(folder, 'exports'));
  await writeFile(join(folder, 'exports', 'a.json'), '{}');
  await writeFile(join(folder, '.hidden'), '');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const signerKey = 'c2lnbmVyLWtleS1mb3ItdGhlLXRlc3Q=';

function walk(...actions: WalkAction[]) {
  return actions.reduce(walkReducer, initialWalkState());
}

describe('path completion', () => {
  it('completes relative to the working directory and hides dot-files unless asked', async () => {
    expect(await completePath('ex', folder)).toMatchObject({ completed: 'exports/' });
    expect(await completePath('exports/', folder)).toMatchObject({ completed: 'exports/a.json', candidates: ['a.json'] });
    expect((await completePath('', folder)).candidates).toEqual(['exports/']);
    expect((await completePath('.h', folder)).completed).toBe('.hidden');
    expect(await completePath('missing/x', folder)).toEqual({ completed: 'missing/x', candidates: [], more: 0 });
  });
});

describe('the plan request', () => {
  it('is absent until the operator asks to read the file', () => {
    expect(planRequestFrom(walk({ type: 'editSource', patch: { path: 'users.json' } }), folder)).toBeUndefined();
  });

  it('carries the hash parameters read by core-client, and a key that changes with them but never holds the signer key', () => {
    const base = walk({ type: 'editSource', patch: { path: 'users.json' } }, { type: 'requestPlan' });
    const withConfig = walkReducer(base, {
      type: 'editHashes',
      patch: { memCost: '14', rounds: '8', saltSeparator: 'Bw==', signerKey: new Secret(signerKey) },
    });
    const plain = planRequestFrom(base, folder);
    const configured = planRequestFrom(withConfig, folder);
    expect(plain?.path).toBe(join(folder, 'users.json'));
    expect(configured?.options.hashConfig).toMatchObject({ memCost: 14, rounds: 8, saltSeparator: 'Bw==' });
    expect(configured?.key).not.toBe(plain?.key);
    expect(configured?.key).not.toContain(signerKey);
  });

  it('says which parameter is wrong, without the signer key', () => {
    const state = walk({ type: 'editHashes', patch: { memCost: '99', rounds: '8', saltSeparator: 'Bw==', signerKey: new Secret(signerKey) } });
    const config = hashConfigFromForm(state.hashes);
    expect(config.state).toBe('invalid');
    if (config.state === 'invalid') {
      expect(config.sentence).toMatch(/mem_cost/);
      expect(config.sentence).not.toContain(signerKey);
    }
  });
});

describe('the resume command', () => {
  it('names the file, the core, the parameters file, the journal and report, but no secret', () => {
    const state = walk(
      { type: 'editConnect', patch: { apiKey: new Secret('a'.repeat(24)), tenant: 'eu' } },
      {
        type: 'preflightFinished',
        result: { core: { coreUrl: 'http://127.0.0.1:3567', apiKey: new Secret('a'.repeat(24)) }, report: { ok: true, target: 't', steps: [] } },
      },
      { type: 'editHashes', patch: { memCost: '14', rounds: '8', saltSeparator: 'Bw==', signerKey: new Secret(signerKey), prefixRules: ['sha1 $'] } },
    );
    const command = resumeCommandFor(state, hashConfigFromForm(state.hashes), '/j/journal.ndjson', '/j/report.ndjson', '/data/my users.json');
    expect(command).toBe(
      "core-migrate push '/data/my users.json' --core http://127.0.0.1:3567 --tenant eu --hash-config /j/journal.ndjson.hash-config.json " +
        "--strip-prefix 'sha1 $' --concurrency 16 --journal /j/journal.ndjson --report /j/report.ndjson",
    );
    expect(command).not.toContain('a'.repeat(24));
    expect(command).not.toContain(signerKey);
  });

  it('saves the hash parameters a resume needs beside the journal, without the signer key', async () => {
    const state = walk({ type: 'editHashes', patch: { memCost: '14', rounds: '8', saltSeparator: 'Bw==', signerKey: new Secret(signerKey) } });
    const journal = join(folder, 'journal.ndjson');
    await saveHashParameters(hashConfigFromForm(state.hashes), journal);
    const saved = await readFile(hashParametersPath(journal), 'utf8');
    expect(saved).not.toContain(signerKey);
    expect(parseHashConfig(saved)).toMatchObject({ memCost: 14, rounds: 8, saltSeparator: 'Bw==' });
  });

  it('never saves the hash parameters over an input of the run (also through a hard link) or over its report', async () => {
    const state = walk({ type: 'editHashes', patch: { memCost: '14', rounds: '8', saltSeparator: 'Bw==', signerKey: new Secret(signerKey) } });
    const exportPath = join(folder, 'precious-export.ndjson');
    await writeFile(exportPath, '{"email":"a@example.com"}\n');
    const journal = join(folder, 'hard-linked-journal.ndjson');
    await link(exportPath, hashParametersPath(journal));
    const run = { sourcePath: exportPath, planOptions: {}, inputFiles: [], outputs: [{ role: 'the journal', path: journal }] };
    const refused = await saveHashParameters(hashConfigFromForm(state.hashes), journal, run);
    expect(refused?.message).toMatch(/^The saved hash parameters .* would overwrite the export .*same file \(through a link\)/);
    expect(await readFile(exportPath, 'utf8')).toBe('{"email":"a@example.com"}\n');

    const otherJournal = join(folder, 'other-journal.ndjson');
    const report = { role: 'the report', path: hashParametersPath(otherJournal) };
    const overReport = await saveHashParameters(hashConfigFromForm(state.hashes), otherJournal, { ...run, outputs: [report] });
    expect(overReport?.message).toMatch(/would overwrite the report/);
  });

  it('never writes the hash parameters through a symbolic link placed where they go', async () => {
    const state = walk({ type: 'editHashes', patch: { memCost: '14', rounds: '8', saltSeparator: 'Bw==', signerKey: new Secret(signerKey) } });
    const journal = join(folder, 'linked-journal.ndjson');
    const target = join(folder, 'precious.txt');
    await writeFile(target, 'keep me\n');
    await symlink(target, hashParametersPath(journal));
    const refused = await saveHashParameters(hashConfigFromForm(state.hashes), journal);
    expect(refused?.message).toMatch(/symbolic link/);
    expect(await readFile(target, 'utf8')).toBe('keep me\n');
  });
});
