// What a model server is to the summaries, /ask and collections: one call with a system and a
// user prompt, answered with text. Apart from the summary pipeline so that a function that only
// chats with a model (/ask) bundles neither the pipeline nor the offline chapters it falls back
// on (test/infra/bundles.test.ts).

/** Low, not zero: summaries should be stable, but a little freedom reads more naturally. */
export const TEMPERATURE = 0.2;

/** One call to a model. */
export interface ChatRequest {
  system: string;
  user: string;
  maxTokens: number;
  /**
   * What the call is for, for the logs: a step of a summary (whole, part, combine), an answer
   * to a question, or a collection's overview.
   */
  step: 'whole' | 'part' | 'combine' | 'ask' | 'overview';
}

export interface ChatAnswer {
  text: string;
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * A model behind some API. `complete` makes one call (retrying what its API deems transient)
 * and throws HttpErrors: 503 (throttled, unavailable; with Retry-After), 504 (deadline), 502
 * (refused, failed, or no text).
 */
export interface ChatModel {
  complete(request: ChatRequest, signal: AbortSignal): Promise<ChatAnswer>;
}
