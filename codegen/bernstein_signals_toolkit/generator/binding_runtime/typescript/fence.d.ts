import type { KIND_NOT_ALLOWED, REPLAYED_SIGNAL, UNAUTHENTICATED_SIGNAL } from "./fence_rules.js";
import type { SignalKind } from "./kinds.js";
import type { SignalPayloadMap } from "./payloads.js";
import type { StreamSignal } from "./signals.js";

/** The code of a line the fence refuses (fence_rules: BS601, BS602, BS603). */
export type FenceCode = typeof UNAUTHENTICATED_SIGNAL | typeof REPLAYED_SIGNAL | typeof KIND_NOT_ALLOWED;

/** What the fence cannot do: `code` says why; the message never holds a key. */
export type FenceErrorCode = "bad-key" | "no-random" | "marked-payload" | "sequence-spent";
export declare class FenceError extends Error {
  constructor(message: string, code: FenceErrorCode);
  readonly code: FenceErrorCode;
}

/** A run's key: the run nonce and a secret that no string, JSON or inspection shows. */
export declare class SignalKey {
  private constructor();
  /** The run nonce: 16 lowercase hex digits, not secret. */
  readonly run: string;
  /** A fresh key from `source.getRandomValues` (default globalThis.crypto; a FenceError without one). */
  static generate(source?: { getRandomValues(array: Uint8Array): unknown } | null): SignalKey;
  /** The key of a key text `<run>:<secret>` (one trailing "\n" allowed; a FenceError, never quoting it, otherwise). */
  static parse(text: string): SignalKey;
  /** The key text, to hand to an adapter. */
  text(): string;
  /** `SignalKey(run=...)`: no secret. */
  toString(): string;
  toJSON(): { readonly run: string };
}

/** How takeProcessKey reads a descriptor. */
export interface TakeKeyOptions {
  /**
   * Reads the key line from descriptor `fd` and closes it: bounded (81 bytes and "\n") and
   * giving up after KEY_READ_SECONDS (throw), as node.js's readKeyDescriptor does.
   */
  readonly readDescriptor?: ((fd: number) => string) | null;
}

/**
 * The run's key from the descriptor BERNSTEIN_SIGNAL_KEY_FD names or from
 * BERNSTEIN_SIGNAL_KEY in `env` (Node: process.env); removes both variables. Null when
 * neither is set; a FenceError (code "bad-key", never the value) when one is but no key
 * could be taken.
 */
export declare function takeProcessKey(
  env: Record<string, string | undefined>,
  options?: TakeKeyOptions,
): SignalKey | null;

/** Writes fenced lines under one key, counting the sequence number from 1. */
export declare class SignalMarker {
  constructor(key: SignalKey);
  readonly key: SignalKey;
  /** The sequence number of the last line marked (0 before the first). */
  readonly seq: number;
  /** formatSignal's line with the mark member added; throws what formatSignal throws, or a FenceError. */
  mark<K extends SignalKind>(
    kind: K,
    payload?: SignalPayloadMap[K] | null,
    options?: { readonly validate?: boolean },
  ): string;
}

/** The fence's verdict on one line; `lineNo` is set by the readers (null from check). */
export type FenceVerdict =
  /** An accepted signal (mark member taken out of its payload); seq is null when no key checks. */
  | {
      readonly signal: StreamSignal;
      readonly code: null;
      readonly problem: null;
      readonly seq: number | null;
      readonly lineNo: number | null;
    }
  /** A signal line the fence refuses: never a signal. */
  | {
      readonly signal: null;
      readonly code: FenceCode;
      readonly problem: string;
      readonly seq: number | null;
      readonly lineNo: number | null;
    }
  /** Plain output: not a signal line at all. */
  | { readonly signal: null; readonly code: null; readonly problem: null; readonly seq: null; readonly lineNo: null };

export interface FenceOptions {
  /** Kinds a run may emit; any other is BS603 (with or without a key). A RangeError for an unknown kind. */
  readonly allowKinds?: Iterable<SignalKind> | null;
}

/** Checks one run's stream, in order, under a key (or none: the allow-list alone). */
export declare class FenceVerifier {
  constructor(key: SignalKey | null, options?: FenceOptions);
  readonly key: SignalKey | null;
  readonly allowKinds: readonly SignalKind[] | null;
  /** The last sequence number taken (0 before the first). */
  readonly lastSeq: number;
  /**
   * The verdict on one line (text or UTF-8 bytes), parsed strictly; never throws. There is
   * no verify(signal): a lenient parse strips the line, so only the line itself is checked.
   */
  check(line: string | Uint8Array): FenceVerdict;
}
