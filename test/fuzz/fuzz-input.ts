// What the fuzz runs send their child and hear back.

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

/** A PDF or Office file for the document fuzz run: bytes under a name that routes them. */
export interface DocumentInput {
  id: number;
  name: string;
  bytes: Uint8Array;
  verify?: boolean;
}

/** How a document input ended, and the child's memory after it. */
export interface DocumentAnswer extends FuzzAnswer {
  /** Resident set size now, and the most it has been in the child's life (`maxRSS`). */
  rssBytes: number;
  maxRssBytes: number;
  heapUsedBytes: number;
  /** pdf.js rejections no one handled, while the pdfStrayRejections switch is off. */
  strayRejections: number;
}
