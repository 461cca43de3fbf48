import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportWriter, type ReportLine } from '../../../core-client/src/plan/rejection-report.js';

const line = (index: number): ReportLine => ({ stage: 'core', location: `users.ndjson, line ${index}`, code: 'failed', reason: 'x'.repeat(2_000) });

describe('ReportWriter', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-writer-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('hundreds of writers waiting on a full buffer share one drain listener: no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const report = new ReportWriter({ role: 'report', path: join(dir, 'r.ndjson') }, { command: 'push', source: 'users.ndjson' });
      // Far past the stream's 16 KiB high-water mark, all waiting at once as operations in flight do.
      await Promise.all(Array.from({ length: 300 }, (_, index) => report.write(line(index))));
      await report.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
      const lines = (await readFile(join(dir, 'r.ndjson'), 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(301);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('appends each run after a header line instead of truncating the earlier runs', async () => {
    const path = join(dir, 'r.ndjson');
    for (const dryRun of [false, true]) {
      const report = new ReportWriter({ role: 'report', path }, { command: 'push', dryRun, source: 'users.ndjson' });
      await report.write(line(1));
      await report.close();
    }
    const lines = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(lines.map((entry) => entry['stage'])).toEqual(['run', 'core', 'run', 'core']);
    expect(lines[2]).toMatchObject({ command: 'push', dryRun: true, source: 'users.ndjson' });
  });
});
