import type { AnySignal, StreamSignal } from "./signals.js";

export interface ParseOptions {
  /** Read lines as the seed project's parser did: stripped, split on whitespace. */
  readonly lenient?: boolean;
  /** Read a well-formed line of a kind the vocabulary does not know as an UnknownKindSignal. */
  readonly unknownKinds?: boolean;
}

/** The signal on `line` (a string, or bytes read as UTF-8), or null when it is plain output. Never throws. */
export declare function parseSignal(
  line: unknown,
  options?: ParseOptions & { readonly unknownKinds?: false },
): StreamSignal | null;
export declare function parseSignal(line: unknown, options: ParseOptions): AnySignal | null;

/** The signals among `lines`, in order. One string instead of an iterable is a TypeError. */
export declare function iterSignals(
  lines: Iterable<unknown>,
  options?: ParseOptions & { readonly unknownKinds?: false },
): Generator<StreamSignal, void, undefined>;
export declare function iterSignals(
  lines: Iterable<unknown>,
  options: ParseOptions,
): Generator<AnySignal, void, undefined>;
