// A command that failed part way: the error, and what it had done by then, for --json to report.

export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';
  constructor(
    /** What failed: its code and message are the command's. */
    readonly error: unknown,
    /** What was done before it failed (e.g. the paths `add` finished), beside `error` in --json. */
    readonly partial: Record<string, unknown>,
  ) {
    super(error instanceof Error ? error.message : String(error), { cause: error });
  }
}
