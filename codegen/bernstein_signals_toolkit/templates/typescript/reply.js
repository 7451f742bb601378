/**
 * The question round-trip: the reply line an orchestrator writes to an adapter's stdin.
 *
 * The reply schema is fixed until a major version (types, minLength, required and
 * no other members), so its rules come from the generator as data (_reply_rules.js)
 * and are checked here; the generator refuses a reply schema that uses more.
 */
import { dumpCanonical, loadObject } from "./_json.js";
import { REPLY_RULES } from "./_reply_rules.js";
import { PayloadError, SignalPayloadError } from "./errors.js";
import { REPLY_ANSWER, REPLY_IN_REPLY_TO } from "./fields.js";
import { lineText } from "./_lines.js";

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "bigint") return "integer";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value; // string, boolean, object
}

function fits(types, found) {
  return types.includes(found) || (found === "integer" && types.includes("number"));
}

function pointer(name) {
  return `/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** How `reply` breaks the reply schema: one PayloadError per broken rule, none if it fits. */
export function checkReply(reply) {
  const errors = [];
  for (const name of REPLY_RULES.required) {
    if (!Object.hasOwn(reply, name)) {
      errors.push(new PayloadError(pointer(name), "required", `${name} is required`));
    }
  }
  for (const [name, value] of Object.entries(reply)) {
    const rule = Object.hasOwn(REPLY_RULES.properties, name) ? REPLY_RULES.properties[name] : null;
    if (rule === null) {
      if (REPLY_RULES.closed) {
        errors.push(
          new PayloadError(pointer(name), "additionalProperties", `${name} is not allowed`),
        );
      }
      continue;
    }
    const found = typeOf(value);
    if (!fits(rule.types, found)) {
      const wanted = rule.types.join(" or ");
      errors.push(new PayloadError(pointer(name), "type", `must be ${wanted}, not ${found}`));
    } else if (typeof value === "string" && rule.minLength !== null) {
      if ([...value].length < rule.minLength) {
        errors.push(
          new PayloadError(pointer(name), "minLength", `must be at least ${rule.minLength} long`),
        );
      }
    }
  }
  return errors;
}

/**
 * The reply line (no trailing newline), canonical like a signal's payload. Throws
 * SignalPayloadError when the reply breaks its schema (an answer that is not a
 * string, an empty inReplyTo).
 */
export function formatReply(answer, inReplyTo = null) {
  const reply = { [REPLY_ANSWER]: answer, [REPLY_IN_REPLY_TO]: inReplyTo };
  const errors = checkReply(reply);
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
  return value === null || checkReply(value).length > 0 ? null : value;
}
