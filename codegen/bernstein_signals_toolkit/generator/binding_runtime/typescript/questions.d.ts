import type { StreamSignal } from "./signals.js";

/** A question or an answer that the round-trip cannot route. */
export declare class QuestionError extends Error {}
/** No question in flight matches the answer. */
export declare class UnknownQuestion extends QuestionError {}
/** The answer is not one of the question's options. */
export declare class AnswerNotAnOption extends QuestionError {}
/** A QUESTION reuses the id of a question that is still unanswered. */
export declare class QuestionIdInUse extends QuestionError {}

/** A question in flight, as the adapter asked it. */
export interface PendingQuestion {
  readonly question: string;
  readonly options: readonly string[] | null;
  readonly id: string | null;
}

/** The questions an adapter has asked and not yet had answered. */
export declare class QuestionTracker {
  constructor(options?: { readonly enforceOptions?: boolean });
  enforceOptions: boolean;
  /** Unanswered questions: those with an id, then those without, each in asking order. */
  readonly pending: readonly PendingQuestion[];
  /** Record a QUESTION (other kinds: null); throws QuestionIdInUse for an id in flight. */
  feed(signal: StreamSignal): PendingQuestion | null;
  /** The reply line answering `questionId` (or the oldest question without an id). */
  answer(text: string, questionId?: string | null): string;
}
