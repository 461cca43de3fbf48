import { printableJson, printableLines } from 'core-client/printable';
import { describeProblem, type ExitCode, type SettingProblem, optional } from 'core-client/settings';
import type { CommandIO } from '../io.js';

/** Where the result goes: standard output itself, or a guard over it (push stops when it is closed under it). */
export interface ResultStream {
  write: (text: string) => void;
  /** Cursor controls of a progress line, which must not be escaped. */
  writeRaw: (text: string) => void;
}

/** The failure document of a --json run, so a pipe always reads one JSON value. */
export interface JsonFailure {
  /** `code` and `setting` (a settings key) when core-client refused: stable, for a script to branch on. */
  error: { command: string; message: string; exitCode: ExitCode; code?: string; setting?: string };
}

/**
 * The one rule of what a headless command prints where. Without --json, standard output is for the person: the
 * result as text and every sentence on the way (the plan's line, probes, progress, hints). With --json, standard
 * output holds exactly one JSON document — the result, or `{"error": …}` when the command fails — and every
 * sentence, warning and progress line goes to standard error, so `core-migrate <command> --json | jq .` always
 * parses. Every line passes through `printableLines`/`printableJson`, so no value from an export reaches the
 * terminal raw.
 */
export class CommandOutput {
  readonly json: boolean;
  readonly #io: CommandIO;
  readonly #command: string;
  readonly #stdout: ResultStream;
  #resultWritten = false;

  /** `command` names the command in failure sentences ("core-migrate push: …"). */
  constructor(io: CommandIO, command: string, options: { json: boolean; stdout?: ResultStream }) {
    this.#io = io;
    this.#command = command;
    this.json = options.json;
    this.#stdout = options.stdout ?? {
      write: (text) => void io.stdout.write(printableLines(text)),
      writeRaw: (text) => void io.stdout.write(text),
    };
  }

  /** Whether the person's stream (standard output, or standard error under --json) is a terminal. */
  get sayingToTerminal(): boolean {
    return (this.json ? this.#io.stderr.isTTY : this.#io.stdout.isTTY) === true;
  }

  /** The columns of the person's stream, for a progress line that must fit. */
  get sayingColumns(): number | undefined {
    return this.json ? this.#io.stderr.columns : this.#io.stdout.columns;
  }

  /** A sentence for a person (whole lines, ending with a newline): standard output, or standard error under --json. */
  say(text: string): void {
    if (this.json) this.#io.stderr.write(printableLines(text));
    else this.#stdout.write(text);
  }

  /** A progress line with its own cursor controls (already printable), to the person's stream. */
  sayRaw(text: string): void {
    if (this.json) this.#io.stderr.write(text);
    else this.#stdout.writeRaw(text);
  }

  /** A warning or a note: standard error, with or without --json. */
  warn(text: string): void {
    this.#io.stderr.write(printableLines(text.endsWith('\n') ? text : `${text}\n`));
  }

  /** The command's result: `json` as one document under --json, else `text` (whole lines). Written once. */
  result(json: unknown, text: string): void {
    this.#resultWritten = true;
    if (this.json) this.#stdout.write(`${printableJson(json)}\n`);
    else this.#stdout.write(text);
  }

  /**
   * A failure: its sentence on standard error, and under --json also the failure document on standard output (unless
   * a result was already written). Returns the exit code, so a command can `return output.fail(…)`.
   */
  fail(message: string, exitCode: ExitCode, problem: { code?: string; setting?: string | undefined } = {}): ExitCode {
    this.#io.stderr.write(printableLines(`core-migrate ${this.#command}: ${message}\n`));
    if (this.json && !this.#resultWritten) {
      this.#resultWritten = true;
      const { code, setting } = problem;
      const failure: JsonFailure = {
        error: { command: this.#command, message, exitCode, ...optional('code', code), ...optional('setting', setting) },
      };
      this.#stdout.write(`${printableJson(failure)}\n`);
    }
    return exitCode;
  }

  /** The command line's boundary for core-client's problems: each in its flags' terms, with the exit code it carries. */
  failWith(problems: SettingProblem | readonly SettingProblem[]): ExitCode {
    const all = Array.isArray(problems) ? problems : [problems];
    const first = all[0];
    if (first === undefined) throw new Error('failWith needs a problem');
    return this.fail(all.map((problem) => describeProblem(problem, 'flags')).join('\n'), first.exitCode, first);
  }
}

/** Whether commander's values ask for --json (read before the settings are parsed, so a refusal is JSON too). */
export function wantsJson(flags: Record<string, unknown>): boolean {
  return flags['json'] === true;
}
