/** The question round-trip: the reply line an orchestrator writes to an adapter's stdin. */
import { dumpCanonical, loadObject } from "./_json.js";
import { lineText } from "./_lines.js";
import { SignalPayloadError } from "./errors.js";
import { REPLY_ANSWER, REPLY_IN_REPLY_TO } from "./fields.js";
import { validateReply } from "./validators.js";

/**
 * The reply line (no trailing newline), canonical like a signal's payload. Throws
 * SignalPayloadError when the reply breaks its schema (an answer that is not a
 * string, an empty inReplyTo).
 */
export function formatReply(answer, inReplyTo = null) {
  const reply = { [REPLY_ANSWER]: answer, [REPLY_IN_REPLY_TO]: inReplyTo };
  const errors = validateReply(reply);
  if (errors.length > 0) throw new SignalPayloadError("reply", errors);
  return dumpCanonical(reply);
}

/**
 * The reply on `line` (a string, or a Uint8Array read as UTF-8), or null unless it is
 * one JSON object that fits the reply schema. One trailing "\n" or "\r\n" is
 * tolerated; never throws.
 */
export function parseReply(line) {
  let text = lineText(line);
  if (text === null) return null;
  if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
  const value = loadObject(text);
  return value === null || validateReply(value).length > 0 ? null : value;
}
