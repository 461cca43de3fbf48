import { describe, expect, it } from 'vitest';
import { defaultRetryPolicy } from '../../../core-client/src/http/retry.js';
import { ConcurrencyController, type ControllerReading } from '../../../core-client/src/push/concurrency.js';
import { Dispatcher } from '../../../core-client/src/push/dispatcher.js';

function dispatcherWithReadings(): { dispatcher: Dispatcher; readings: ControllerReading[] } {
  const readings: ControllerReading[] = [];
  let clock = 0;
  const now = (): number => (clock += 5);
  const controller = new ConcurrencyController({ initial: 1, min: 1, max: 4 }, { startupAnswers: 2 }, (reading) => readings.push(reading));
  const dispatcher = new Dispatcher({
    controller,
    policy: defaultRetryPolicy,
    callOptions: {},
    stopping: new AbortController().signal,
    random: () => 0,
    now,
  });
  return { dispatcher, readings };
}

describe('Dispatcher', () => {
  it('counts an answer that took its user no further (a code found used up) as wasted for the controller, and still returns it', async () => {
    const { dispatcher, readings } = dispatcherWithReadings();
    const answers = [];
    for (const outcome of ['codeGone', 'codeGone', 'created', 'created']) {
      answers.push(
        await dispatcher.send(
          () => Promise.resolve({ outcome }),
          undefined,
          (answer) => answer.outcome !== 'codeGone',
        ),
      );
    }
    expect(answers.map((answer) => answer.outcome)).toEqual(['codeGone', 'codeGone', 'created', 'created']);
    // The start-up's first measurement wants 2 useful answers: the two used-up codes did not count.
    expect(readings[0]).toMatchObject({ answers: 4, useful: 2 });
  });

  it('counts every answer as useful when no judgement is given', async () => {
    const { dispatcher, readings } = dispatcherWithReadings();
    for (let sent = 0; sent < 2; sent += 1) await dispatcher.send(() => Promise.resolve({ outcome: 'codeGone' }));
    expect(readings[0]).toMatchObject({ answers: 2, useful: 2 });
  });
});
