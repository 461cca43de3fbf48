import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../../core-client/src/secret.js';
import { HashFamiliesScreen } from '../../../tui/src/screens/hash-families-screen.js';
import type { WalkAction, WalkState } from '../../../tui/src/screens/walk-state.js';
import { keys, press, waitForFrame } from '../keys.js';
import { planSummary } from './fixtures.js';
import { expectFits80x24 } from './fits.js';
import { ScreenHarness } from './harness.js';

const signerKey = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';
const block = `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${signerKey},\n  base64_salt_separator: Bw==,\n  rounds: 8,\n  mem_cost: 14,\n}\n`;

const prepared: WalkAction[] = [
  { type: 'goTo', step: 'hashes' },
  { type: 'requestPlan' },
  { type: 'planFinished', optionsKey: 'current', summary: planSummary() },
  {
    type: 'preflightFinished',
    result: {
      core: { coreUrl: 'http://127.0.0.1:3567', apiKey: new Secret('k'.repeat(24)), signerKeyConfigured: false },
      report: { ok: true, target: 'http://127.0.0.1:3567 (tenant public)', steps: [] },
    },
  },
];

function hashesScreen(
  observe: (state: WalkState) => void,
  calls: string[] = [],
  more: WalkAction[] = [],
  emailCandidates = ['ada@example.com', 'alan@example.com'],
) {
  return render(
    <ScreenHarness
      prepare={[...prepared, ...more]}
      observe={observe}
      screen={({ state, current, dispatch }) => (
        <HashFamiliesScreen
          state={state}
          current={current}
          planCurrent
          emailCandidates={emailCandidates}
          dispatch={dispatch}
          onCompleteEmail={() => calls.push('complete')}
          onCheck={() => calls.push('check')}
        />
      )}
    />,
  );
}

describe('the Hashes screen', () => {
  it('shows each family with its count and fate, the refused hashes and the wrappers stripped', () => {
    const app = hashesScreen(() => undefined);
    const frame = app.lastFrame() ?? '';
    expect(frame).toMatch(/bcrypt +2 imported as the standard \$2a\$ string/);
    expect(frame).toMatch(/argon2 +2/);
    expect(frame).toMatch(/vendor_scrypt +3 sent as \$f_scrypt\$/);
    expect(frame).toMatch(/refused: unusable +1 malformed BCrypt hash/);
    expect(frame).toMatch(/refused: unsupported +1 unsupported family: MD5/);
    expect(frame).toContain('Wrappers stripped: django bcrypt$ 1');
    expect(frame).toContain('VENDOR_PASSWORD_HASHING_SIGNER_KEY');
    expect(frame).toContain('The stack says the core has NONE.');
    expectFits80x24(frame);
    app.unmount();
  });

  it('fits 80x24 with every note at once: a bad hash config, the signer-key reminder, suggestions and a long verdict', async () => {
    const candidates = Array.from({ length: 5 }, (_, index) => `someone.with.a.long.name-${index}@example.com`);
    const verdict =
      'the password does NOT match someone.with.a.long.name-0@example.com (vendor_scrypt): check the signer key, rounds, mem_cost and salt separator (the hash had a django wrapper that was stripped)';
    const app = hashesScreen(
      () => undefined,
      [],
      [
        { type: 'editHashes', patch: { memCost: '99', rounds: 'eight', saltSeparator: 'Bw==', checkEmail: 'someone', focus: 6 } },
        { type: 'checkFinished', result: { match: false, sentence: verdict } },
      ],
      candidates,
    );
    const frame = app.lastFrame() ?? '';
    expectFits80x24(frame);
    expect(frame).toMatch(/✗ .*(mem_cost|rounds)/);
    expect(frame).toContain('VENDOR_PASSWORD_HASHING_SIGNER_KEY');
    expect(frame).toContain('The stack says the core has NONE.');
    expect(frame).toContain('someone.with.a.long.name-0@example.com');
    expect(frame).toMatch(/\(\+\d more\)/);
    expect(frame).toContain('✗ the password does NOT match');
    expect(frame).toContain('check the signer key');
    // The family table gave its rows to the notes: its counts stay, on one line.
    expect(frame).toContain('Hash families: bcrypt 2 · argon2 2 · vendor_scrypt 3 · refused 2');
    expect(frame).toContain('Wrappers stripped: django bcrypt$ 1');
    // The same screen with nothing to note keeps the full table.
    await press(app, keys.up, keys.up, keys.up, keys.ctrlU, '14', keys.up, keys.ctrlU, '8');
    expect(app.lastFrame()).toContain('Hash families in the file');
    expectFits80x24(app.lastFrame() ?? '');
    app.unmount();
  });

  it('reads a pasted hash_config block into the fields without ever showing it', async () => {
    let state: WalkState | undefined;
    const app = hashesScreen((next) => (state = next));
    await press(app, block);
    await waitForFrame(app.lastFrame, (text) => /rounds +8/.test(text), 'the parsed rounds');
    expect(state?.hashes).toMatchObject({ memCost: '14', rounds: '8', saltSeparator: 'Bw==' });
    expect(state?.hashes.signerKey.reveal()).toBe(signerKey);
    for (const frame of app.frames) expect(frame).not.toContain(signerKey.slice(0, 12));
    app.unmount();
  });

  it('says why a paste or a prefix rule cannot be used', async () => {
    let state: WalkState | undefined;
    const app = hashesScreen((next) => (state = next));
    await press(app, 'hash_config { base64_salt_separator: Bw==, rounds: 99, mem_cost: 14 }');
    await waitForFrame(app.lastFrame, (text) => text.includes('rounds'), 'the paste error');
    expect(state?.hashes.pasteNote).toMatch(/rounds/);
    await press(app, keys.ctrlU, keys.up, keys.up, keys.up, 're:(', keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('not a valid regular expression'), 'the refused rule');
    expect(state?.hashes.prefixRules).toEqual([]);
    await press(app, keys.ctrlU, 'sha1$', keys.enter);
    expect(state?.hashes.prefixRules).toEqual(['sha1$']);
    app.unmount();
  });

  it('checks a known password on Enter, completes emails with Tab, and goes on to Review', async () => {
    let state: WalkState | undefined;
    const calls: string[] = [];
    const app = hashesScreen((next) => (state = next), calls);
    await press(app, keys.up, keys.up, keys.tab);
    expect(calls).toEqual(['complete']);
    expect(app.lastFrame()).toContain('ada@example.com  alan@example.com');
    await press(app, 'ada@example.com', keys.down, 'secret-password', keys.enter);
    expect(calls).toEqual(['complete', 'check']);
    expect(state?.hashes.checkPassword.reveal()).toBe('secret-password');
    for (const frame of app.frames) expect(frame).not.toContain('secret-password');
    await press(app, keys.down, keys.enter);
    expect(state?.step).toBe('review');
    app.unmount();
  });
});
