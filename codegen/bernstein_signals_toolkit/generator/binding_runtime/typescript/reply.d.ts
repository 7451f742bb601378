import type { Reply } from "./payloads.js";

/** The canonical reply line (no newline); throws SignalPayloadError when it breaks its schema. */
export declare function formatReply(answer: string, inReplyTo?: string | null): string;

/** The reply on `line`, or null unless it fits the reply schema. Never throws. */
export declare function parseReply(line: unknown): Reply | null;
