// What the model says a call must do: fail with a LongshipError code, or succeed with a value.

export type Outcome<T = undefined> = { code: string } | { value: T };

export const fail = (code: string): { code: string } => ({ code });
export const ok = <T>(value: T): { value: T } => ({ value });
