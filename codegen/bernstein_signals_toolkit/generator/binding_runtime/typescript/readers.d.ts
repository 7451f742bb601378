import type { FenceVerdict, SignalKey } from "./fence.js";
import type { SignalKind } from "./kinds.js";
import type { AnySignalRecord, SignalRecord } from "./signals.js";

export interface ReadOptions {
  /** Lines longer than this many bytes (terminator excluded) are never signals. */
  readonly maxLineBytes?: number;
  /** Read a well-formed line of a kind the vocabulary does not know as an UnknownKindSignal. */
  readonly unknownKinds?: boolean;
  /** Fenced mode: only lines marked with this run's key are signals (spec/fenced-signals.md). */
  readonly key?: SignalKey | null;
  /** Fenced mode: only these kinds are signals; any other is BS603. */
  readonly allowKinds?: Iterable<SignalKind> | null;
  /** Called for each line the fence refuses (BS601, BS602, BS603): its verdict has `lineNo`. */
  readonly onRejected?: ((verdict: FenceVerdict) => void) | null;
}

/**
 * A chunk of a stream: bytes (a Node Buffer is one) or text, read as UTF-8. A chunk may end
 * inside a character: an unfinished UTF-8 sequence, or a high surrogate, waits for the next.
 */
export type Chunk = Uint8Array | string;

/** Push-style reader, for callers that own the read loop. */
export declare class SignalScanner {
  constructor(options?: ReadOptions);
  /** With unknownKinds, records may hold an UnknownKindSignal (see AnySignalRecord). */
  /** Lines seen so far (a final line without "\n" counts once closed). */
  readonly lines: number;
  /** The records the chunk completes. */
  feed(chunk: Chunk): SignalRecord[];
  /** The record of a final line without "\n", if it is a signal. */
  close(): SignalRecord[];
}

/** The signal lines of a stream (a Node Readable, any async iterable of chunks), in bounded memory. */
export declare function readSignals(
  source: AsyncIterable<Chunk> | Iterable<Chunk>,
  options?: ReadOptions & { readonly unknownKinds?: false },
): AsyncGenerator<SignalRecord, void, undefined>;
export declare function readSignals(
  source: AsyncIterable<Chunk> | Iterable<Chunk>,
  options: ReadOptions,
): AsyncGenerator<AnySignalRecord, void, undefined>;
