import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { Problem } from '../../problem.js';
import type { Secret } from '../../secret.js';
import { VerifyAnswerSchema, type VerifyTask } from './verifier-pool-messages.js';
import type { LegacyVerification } from './verify-legacy.js';

export type VerifierPoolProblemCode = 'verifierPoolBusy' | 'verifierPoolClosed' | 'verifierThreadLost';

/**
 * The pool is full: every thread is checking and the queue holds `maxQueued` checks. Nothing was computed; a
 * login-time service answers "try later (busy)" rather than letting the wait grow without bound. More threads or a
 * longer queue fix it (`login-migration serve --verifiers`, `--max-queued-checks`).
 */
export class VerifierPoolBusy extends Problem<'maxQueuedChecks' | 'verifiers', 'verifierPoolBusy'> {
  override readonly name = 'VerifierPoolBusy';
  constructor(readonly maxQueued: number) {
    super(
      'verifierPoolBusy',
      'setting',
      'maxQueuedChecks',
      (_face, name) =>
        `every verifier thread is busy and ${maxQueued} checks already wait: give more threads (${name('verifiers')}) or a longer queue (${name('maxQueuedChecks')})`,
    );
  }
}

/** The pool was closed before the check ended (the service is stopping); nothing was decided. */
export class VerifierPoolClosed extends Problem<never, 'verifierPoolClosed'> {
  override readonly name = 'VerifierPoolClosed';
  constructor() {
    super('verifierPoolClosed', 'setting', undefined, 'the legacy verifier pool is closed');
  }
}

/** A verifier thread stopped during the check (out of memory, a bug); nothing was decided, and the next check starts a new thread. */
export class VerifierThreadLost extends Problem<never, 'verifierThreadLost'> {
  override readonly name = 'VerifierThreadLost';
  constructor() {
    super('verifierThreadLost', 'setting', undefined, 'a legacy verifier thread stopped during the check; nothing was decided');
  }
}

export interface VerifierPoolOptions {
  /** Threads at most (started as checks arrive); default: the CPUs Node may use. */
  size?: number;
  /** Checks that may wait for a thread; one more is refused with VerifierPoolBusy. Default: 16 per thread. */
  maxQueued?: number;
}

interface PendingCheck {
  task: VerifyTask;
  resolve: (verification: LegacyVerification) => void;
  reject: (reason: unknown) => void;
  /** Set once the caller stopped waiting (abort): the thread's answer is then dropped. */
  settled: boolean;
}

interface VerifierThread {
  worker: Worker;
  running: PendingCheck | undefined;
}

// From the built package the thread runs verifier-worker.js beside this file. From the sources (tests, benches) it is
// the .ts file, which Node loads only through tsx: its imports name .js files that exist only after a build.
const fromSources = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSources ? './verifier-worker.ts' : './verifier-worker.js', import.meta.url);
const workerExecArgv = fromSources ? ['--import', 'tsx'] : undefined;

/**
 * Legacy hash checks on worker threads, so the event loop of a login-time service stays free while they run: the
 * checks that hold a thread (bcrypt-sha256 through bcryptjs, the iterated digests of crypt(3) and phpass) hold a
 * verifier thread instead, and requests that are not verifying are answered meanwhile. Bounded: `size` threads and
 * `maxQueued` waiting checks; beyond that a check is refused at once (VerifierPoolBusy). `verify` has the signature
 * of `verifyLegacyPassword`, so either can be handed to whatever checks passwords.
 */
export class LegacyVerifierPool {
  readonly size: number;
  readonly maxQueued: number;
  readonly #threads: VerifierThread[] = [];
  readonly #queue: PendingCheck[] = [];
  #nextTaskId = 0;
  #closed = false;

  constructor(options: VerifierPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.maxQueued = Math.max(0, options.maxQueued ?? this.size * 16);
  }

  /** Checks running and waiting: what a health answer or a benchmark may show. */
  get load(): { running: number; queued: number } {
    return { running: this.#threads.filter((thread) => thread.running !== undefined).length, queued: this.#queue.length };
  }

  /** As verifyLegacyPassword; rejects with VerifierPoolBusy when full, VerifierPoolClosed once closed, the reason on abort. */
  readonly verify = (password: Secret, hash: string, options: { signal?: AbortSignal } = {}): Promise<LegacyVerification> => {
    const { signal } = options;
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    if (this.#closed) return Promise.reject(new VerifierPoolClosed());
    const idle = this.#idleThread();
    if (idle === undefined && this.#queue.length >= this.maxQueued) return Promise.reject(new VerifierPoolBusy(this.maxQueued));
    return new Promise<LegacyVerification>((resolve, reject) => {
      const check: PendingCheck = {
        task: { taskId: this.#nextTaskId++, password: password.reveal(), hash },
        settled: false,
        resolve: (verification) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(verification);
        },
        reject: (reason) => {
          signal?.removeEventListener('abort', onAbort);
          reject(reason);
        },
      };
      const onAbort = (): void => {
        check.settled = true;
        const waiting = this.#queue.indexOf(check);
        if (waiting >= 0) this.#queue.splice(waiting, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (idle === undefined) this.#queue.push(check);
      else this.#start(idle, check);
    });
  };

  /** Stops every thread; checks running or waiting reject with VerifierPoolClosed. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const check of this.#queue.splice(0)) this.#settle(check, { closed: true });
    const threads = this.#threads.splice(0);
    for (const thread of threads) if (thread.running !== undefined) this.#settle(thread.running, { closed: true });
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  #idleThread(): VerifierThread | undefined {
    const idle = this.#threads.find((thread) => thread.running === undefined);
    if (idle !== undefined || this.#threads.length >= this.size) return idle;
    return this.#spawn();
  }

  #spawn(): VerifierThread {
    const worker = new Worker(workerUrl, { ...(workerExecArgv !== undefined && { execArgv: workerExecArgv }) });
    const thread: VerifierThread = { worker, running: undefined };
    worker.on('message', (message: unknown) => {
      const answer = VerifyAnswerSchema.parse(message);
      const check = thread.running;
      if (check === undefined || check.task.taskId !== answer.taskId) return;
      thread.running = undefined;
      this.#settle(check, { verification: answer.verification });
      this.#next(thread);
    });
    // A thread that dies (out of memory, a bug) fails its check, never silently; the next check starts a new thread.
    const lost = (): void => {
      const index = this.#threads.indexOf(thread);
      if (index < 0) return;
      this.#threads.splice(index, 1);
      if (thread.running !== undefined) this.#settle(thread.running, { lost: true });
      thread.running = undefined;
      const waiting = this.#queue.shift();
      if (waiting !== undefined && !this.#closed) this.#start(this.#spawn(), waiting);
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    worker.unref();
    this.#threads.push(thread);
    return thread;
  }

  #start(thread: VerifierThread, check: PendingCheck): void {
    thread.running = check;
    // A thread holds the process open only while it checks, so a library user's process can end when idle.
    thread.worker.ref();
    thread.worker.postMessage(check.task);
  }

  #next(thread: VerifierThread): void {
    const waiting = this.#queue.shift();
    if (waiting === undefined) thread.worker.unref();
    else this.#start(thread, waiting);
  }

  #settle(check: PendingCheck, end: { verification: LegacyVerification } | { closed: true } | { lost: true }): void {
    // The password goes with the check: nothing of it stays in the pool.
    check.task.password = '';
    if (check.settled) return;
    check.settled = true;
    if ('verification' in end) check.resolve(end.verification);
    else check.reject('closed' in end ? new VerifierPoolClosed() : new VerifierThreadLost());
  }
}
