import type { SignalKind } from "./kinds.js";
import type { SignalPayloadMap } from "./payloads.js";

/**
 * The canonical signal line (no trailing newline); a null or absent payload writes
 * none. Throws SignalFormatError for an unknown kind or a payload JSON cannot carry,
 * and SignalPayloadError for a payload that breaks its schema (unless `validate` is false).
 */
export declare function formatSignal<K extends SignalKind>(
  kind: K,
  payload?: SignalPayloadMap[K] | null,
  options?: { readonly validate?: boolean },
): string;
