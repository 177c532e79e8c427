// What the parser fuzz run sends its child and hears back.

export interface FuzzInput {
  id: number;
  /** The file name; its extension picks the parser (none: the content decides). */
  name: string;
  content: string;
  /** When set, the input is these bytes instead (decoding is fuzzed too). */
  bytes?: number[];
  /** Run verify() after this input. */
  verify?: boolean;
}

/** How one path ended: with a result, a typed LongshipError, or anything else (a failure). */
export type Ended = { ok: true } | { typed: string } | { untyped: string };

export interface FuzzAnswer {
  id: number;
  direct: Ended;
  public: Ended;
}
