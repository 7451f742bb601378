/**
 * The orchestrator's side of the question round-trip: QuestionTracker records the
 * QUESTIONs an adapter asks and turns operator answers into reply lines, matching
 * by id, or first-in-first-out for questions without one (as the protocol says).
 */
import { shown } from "./_shown.js";
import { QUESTION_ID, QUESTION_OPTIONS, QUESTION_TEXT } from "./fields.js";
import { SignalKind } from "./kinds.js";
import { formatReply } from "./reply.js";

/** A question or an answer that the round-trip cannot route. */
export class QuestionError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/** No question in flight matches the answer (unknown id, already answered, none waiting). */
export class UnknownQuestion extends QuestionError {}

/** The answer is not one of the question's options. */
export class AnswerNotAnOption extends QuestionError {}

/** A QUESTION reuses the id of a question that is still unanswered. */
export class QuestionIdInUse extends QuestionError {}

function pending(payload) {
  const text = payload[QUESTION_TEXT];
  const options = payload[QUESTION_OPTIONS];
  const id = payload[QUESTION_ID];
  const choices =
    Array.isArray(options) && options.every((option) => typeof option === "string")
      ? Object.freeze([...options])
      : null;
  return Object.freeze({
    question: typeof text === "string" ? text : "",
    options: choices,
    id: typeof id === "string" && id !== "" ? id : null,
  });
}

/** The questions an adapter has asked and not yet had answered. */
export class QuestionTracker {
  /** With enforceOptions (the default) an answer must be one of the question's options. */
  constructor(options = {}) {
    this.enforceOptions = options.enforceOptions ?? true;
    this._byId = new Map();
    this._fifo = [];
    this._head = 0; // the oldest question without an id: O(1) at both ends
    this._answered = new Set();
  }

  /** Unanswered questions: those with an id, then those without, each in asking order. */
  get pending() {
    return Object.freeze([...this._byId.values(), ...this._fifo.slice(this._head)]);
  }

  /**
   * Record `signal` if it is a QUESTION (other kinds: null). Throws QuestionIdInUse
   * when its id belongs to a question still in flight; an id may be reused once answered.
   */
  feed(signal) {
    if (signal === null || typeof signal !== "object" || signal.kind !== SignalKind.QUESTION) {
      return null;
    }
    const asked = pending(signal.payload ?? {});
    if (asked.id === null) {
      this._fifo.push(asked);
    } else if (this._byId.has(asked.id)) {
      throw new QuestionIdInUse(`question id ${shown(asked.id)} is already waiting for an answer`);
    } else {
      this._byId.set(asked.id, asked);
      this._answered.delete(asked.id);
    }
    return asked;
  }

  /**
   * The reply line (no newline) answering `questionId`, or the oldest question without
   * an id when it is null or absent; the question is then answered.
   */
  answer(text, questionId = null) {
    let asked;
    if (questionId === null || questionId === undefined) {
      if (this._head >= this._fifo.length) {
        throw new UnknownQuestion("no question without an id is waiting for an answer");
      }
      asked = this._fifo[this._head];
    } else {
      asked = this._byId.get(questionId);
      if (asked === undefined) {
        const state = this._answered.has(questionId) ? "was already answered" : "was never asked";
        throw new UnknownQuestion(`question id ${shown(questionId)} ${state}`);
      }
    }
    if (this.enforceOptions && asked.options !== null && !asked.options.includes(text)) {
      throw new AnswerNotAnOption(
        `answer ${shown(text)} to ${shown(asked.question)} is not one of ${JSON.stringify(asked.options)}`,
      );
    }
    const line = formatReply(text, questionId ?? null);
    if (questionId === null || questionId === undefined) {
      this._fifo[this._head++] = undefined;
      if (this._head > 64 && this._head * 2 > this._fifo.length) {
        this._fifo = this._fifo.slice(this._head);
        this._head = 0;
      }
    } else {
      this._byId.delete(questionId);
      this._answered.add(questionId);
    }
    return line;
  }
}
