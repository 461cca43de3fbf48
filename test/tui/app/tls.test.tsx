import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeThrowawayCertificates, startTlsFront, type ThrowawayCertificates, type TlsFront } from '../../support/tls-servers.js';
import { appTestBed } from '../support/app-bed.js';
import { keys } from '../keys.js';
import { flat, onScreen, press, waitFor } from '../support/terminal.js';

const bed = appTestBed('tls');
const size = { columns: 120, rows: 40 };
let certificates: ThrowawayCertificates;
const fronts: TlsFront[] = [];

beforeAll(() => {
  certificates = makeThrowawayCertificates();
});

afterAll(async () => {
  await Promise.all(fronts.map((front) => front.close()));
});

async function front(): Promise<TlsFront> {
  const started = await startTlsFront(certificates.trusted, bed.core().port);
  fronts.push(started);
  return started;
}

describe('the Connect screen says why a TLS connection failed, and how to fix it', () => {
  it('https:// to a core that speaks plain HTTP: the sentence, and the screen stays', async () => {
    const app = bed.open({}, { size, coreUrl: bed.core().url.replace('http://', 'https://') });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    const frame = await waitFor(app, (text) => flat(text).includes('does not speak TLS on that port'));
    expect(flat(frame)).toContain('http:// instead of https://');
    expect(frame).toContain('Where is the core?');
  });

  it('a certificate of a private authority: the CA file field is the fix, and with it the walk goes on', async () => {
    const tls = await front();
    const app = bed.open({}, { size, coreUrl: tls.url });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, (text) => flat(text).includes('UNABLE_TO_VERIFY_LEAF_SIGNATURE'));
    expect(flat(app.lastFrame())).toContain('--ca-file FILE');
    app.unmount();
    const trusting = bed.open({ caFile: certificates.caFile }, { size, coreUrl: tls.url });
    await waitFor(trusting, 'Where is the core?');
    await press(trusting, keys.enter);
    await waitFor(trusting, onScreen('Source'));
  });
});
