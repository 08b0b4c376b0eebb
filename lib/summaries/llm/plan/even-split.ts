// The even split: text units (caption segments) cut into the fewest parts that hold them, the
// text shared out evenly among them.
import { estimateTokens } from '../../../models/tokens';

/**
 * Splits text units (caption segments) into parts of at most `maxTokens` estimated tokens each,
 * on unit boundaries where possible, else on sentence, else on word boundaries. The number of
 * parts is the fewest that can hold the text; the text is then shared out among them evenly, so
 * no part is a small remainder. Joined with spaces, the parts contain every word of the input,
 * in order.
 */
export function splitIntoParts(units: readonly string[], maxTokens: number): string[] {
  const pieces: string[] = [];
  for (const unit of units) {
    const text = unit.trim();
    if (text !== '') pieces.push(...breakDown(text, maxTokens));
  }
  if (pieces.length === 0) return [];
  const costs = pieces.map((piece) => estimateTokens(piece) + 1);
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  // Pieces do not divide evenly: when the fewest parts cannot hold them, one more part is tried.
  for (let count = Math.max(1, Math.ceil(total / maxTokens)); ; count++) {
    const parts = shareOut(pieces, costs, total, count, maxTokens);
    if (parts) return parts;
  }
}

/**
 * The pieces in `count` consecutive parts of about `total / count` tokens each: a part ends at
 * the piece boundary nearest its share of the running total. Undefined when a part would exceed
 * `maxTokens`. At `count` = the number of pieces every part is one piece, so this always ends.
 */
function shareOut(
  pieces: readonly string[],
  costs: readonly number[],
  total: number,
  count: number,
  maxTokens: number,
): string[] | undefined {
  const parts: string[] = [];
  let start = 0;
  let size = 0;
  let done = 0;
  for (let index = 0; index < pieces.length; index++) {
    const cost = costs[index] ?? 0;
    const goal = (total * (parts.length + 1)) / count;
    const left = pieces.length - index;
    const partsLeft = count - parts.length;
    // End the part before this piece when that lands nearer its share than taking it would,
    // when taking it would overflow, or when every later part needs a piece of its own.
    const nearer = Math.abs(done - goal) <= Math.abs(done + cost - goal);
    if (
      size > 0 &&
      parts.length < count - 1 &&
      (nearer || size + cost > maxTokens || left < partsLeft)
    ) {
      parts.push(pieces.slice(start, index).join(' '));
      start = index;
      size = 0;
    }
    size += cost;
    done += cost;
    if (size > maxTokens) return undefined;
  }
  parts.push(pieces.slice(start).join(' '));
  return parts;
}

/** A unit too large for one part, cut on sentence ends, then on spaces if a sentence is too. */
function breakDown(text: string, maxTokens: number): string[] {
  if (estimateTokens(text) + 1 <= maxTokens) return [text];
  const sentences = text.split(/(?<=[.!?…])\s+/).filter(Boolean);
  if (sentences.length > 1) return sentences.flatMap((sentence) => breakDown(sentence, maxTokens));
  const words = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let current: string[] = [];
  // Characters of `current` joined with spaces, kept as words are added (linear, not re-joined).
  let length = 0;
  for (const word of words) {
    const longer = current.length === 0 ? word.length : length + 1 + word.length;
    if (current.length > 0 && Math.ceil(longer / 3) + 1 > maxTokens) {
      out.push(current.join(' '));
      current = [];
      length = 0;
    }
    length = current.length === 0 ? word.length : length + 1 + word.length;
    current.push(word);
  }
  if (current.length > 0) out.push(current.join(' '));
  return out;
}
