import { parentPort } from 'node:worker_threads';
import { Secret } from '../../secret.js';
import { VerifyTaskSchema, type VerifyAnswer } from './verifier-pool-messages.js';
import { verifyLegacyPassword } from './verify-legacy.js';

/** A verifier thread of the pool (verifier-pool.ts): one check at a time, answered by its task id. */
const port = parentPort;
if (port === null) throw new Error('verifier-worker.ts runs only as a worker thread of the legacy verifier pool');

port.on('message', (message: unknown) => {
  const task = VerifyTaskSchema.parse(message);
  void verifyLegacyPassword(new Secret(task.password), task.hash).then((verification) => {
    const answer: VerifyAnswer = { taskId: task.taskId, verification };
    port.postMessage(answer);
  });
});
