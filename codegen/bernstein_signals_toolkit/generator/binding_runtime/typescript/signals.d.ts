import type { SignalKind } from "./kinds.js";
import type { SignalPayloadMap } from "./payloads.js";

/**
 * A JSON value as the binding reads and writes it. Integers beyond
 * Number.MAX_SAFE_INTEGER are read as bigint, so that no digit is lost, and a
 * bigint is written as its exact digits.
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** One signal line, parsed: a discriminated union keyed by `kind`. */
export type StreamSignal = {
  [K in SignalKind]: {
    readonly kind: K;
    /** The JSON object after the kind, {} when the line had none; not checked against the schema. */
    readonly payload: SignalPayloadMap[K];
    /** The line without its terminator (lenient mode: stripped). */
    readonly rawLine: string;
    /** Whether the signal ends the adapter's run. */
    readonly isTerminal: boolean;
  };
}[SignalKind];

/**
 * A well-formed signal line of a kind this vocabulary does not know, as the readers give
 * it with `unknownKinds: true`: its payload is strict JSON checked against no schema,
 * and it is never terminal.
 */
export interface UnknownKindSignal {
  readonly kind: string;
  readonly payload: JsonObject;
  readonly rawLine: string;
  readonly isTerminal: false;
  readonly unknownKind: true;
}

/** What the readers give with `unknownKinds: true`. */
export type AnySignal = StreamSignal | UnknownKindSignal;

/** One signal line of a stream, as readSignals yields it with `unknownKinds: true`. */
export interface AnySignalRecord {
  readonly lineNo: number;
  readonly signal: AnySignal;
  readonly raw: Uint8Array;
}

/** The signal of one kind. */
export type SignalOf<K extends SignalKind> = Extract<StreamSignal, { kind: K }>;

/** One signal line of a stream, as readSignals yields it. */
export interface SignalRecord {
  /** 1-based line number in the stream. */
  readonly lineNo: number;
  readonly signal: StreamSignal;
  /** The line's bytes without its terminator ("\n" or "\r\n"). */
  readonly raw: Uint8Array;
}
