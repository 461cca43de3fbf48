import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { formatLocation } from '../location.js';
import type { PlanRejection } from './operation.js';

/** One line of a report: where, who, what, and why — never a hash, a salt or a secret. */
export interface ReportLine {
  stage: 'plan' | 'core';
  location: string;
  email?: string;
  /** The user's id in the old system. */
  sourceId?: string;
  operation?: string;
  code: string;
  reason: string;
}

export function reportLineOfRejection(rejection: PlanRejection): ReportLine {
  return {
    stage: 'plan',
    location: formatLocation(rejection.location),
    ...(rejection.email !== undefined && { email: rejection.email }),
    ...(rejection.sourceId !== undefined && { sourceId: rejection.sourceId }),
    ...(rejection.operation !== undefined && { operation: rejection.operation }),
    code: rejection.code,
    reason: rejection.reason,
  };
}

/** An NDJSON report file written as a stream, respecting backpressure. */
export class ReportWriter {
  readonly #stream: WriteStream;
  #lines = 0;

  constructor(path: string, options: { append?: boolean } = {}) {
    this.#stream = createWriteStream(path, { flags: options.append === true ? 'a' : 'w', encoding: 'utf8' });
  }

  get lines(): number {
    return this.#lines;
  }

  async write(line: ReportLine): Promise<void> {
    this.#lines += 1;
    if (!this.#stream.write(`${JSON.stringify(line)}\n`)) await once(this.#stream, 'drain');
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.#stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}
