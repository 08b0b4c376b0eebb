// Key points: a few sentences of a summary, each with the moment of the video it comes from.
// Models are asked for them in a plain structure; their answer is read leniently, and every
// time they give is then checked against the transcript.
import type { ClaimedKeyPoint } from '../transcripts/anchors';
import { KEY_POINT_FORM, parseTimestamp, readTimedLine } from '../transcripts/timed-line';

/** How many key points a summary of `words` words gets: one per ~50 words, 3 to 10. */
export function keyPointCount(words: number): number {
  return Math.min(10, Math.max(3, Math.round(words / 50)));
}

// Headings, as models dress them. Each pattern is linear: no two quantifiers next to each
// other can share a character (a run of spaces or stars), which is what made the patterns they
// replace retry every split of a long run.
// "KEY POINTS:", "**Key points**", "## Key Points" on a line of their own.
const KEY_POINTS_HEADING = /^[#*\s]*key\s*points[*\s:]*$/i;
// "SUMMARY:", "**Summary**", "## Summary" on a line of their own at the start of the answer...
const SUMMARY_HEADING = /^[#*\s]*summary[*\s:]*$/i;
// ...or before the summary on its first line, with a colon: "SUMMARY: ...", "**Summary:** ...".
// Without the colon, "Summary statistics ..." is the summary's first word.
const SUMMARY_LABEL = /^[#*\s]*summary[*\s]*:[*\s]*/i;

function pointOf(line: string): ClaimedKeyPoint | undefined {
  const read = readTimedLine(line, KEY_POINT_FORM);
  const atMs = read ? parseTimestamp(read.time) : undefined;
  const text = read?.text.replace(/\*\*/g, '').trim();
  return atMs === undefined || !text ? undefined : { text, atMs };
}

/** The summary's lines without the heading or label that may open them. */
function withoutSummaryHeading(lines: string[]): string[] {
  const [first = '', ...rest] = lines;
  if (SUMMARY_HEADING.test(first)) return rest;
  const label = SUMMARY_LABEL.exec(first);
  return label ? [first.slice(label[0].length), ...rest] : lines;
}

/**
 * A model's answer as summary and claimed key points. An answer in the asked-for form gives
 * both; timestamped lines at the end of an answer without the heading count as key points; any
 * other answer (plain prose) is all summary. Linear in the answer's length, whatever it holds.
 */
export function parseAnswer(answer: string): { summary: string; keyPoints: ClaimedKeyPoint[] } {
  const text = answer.replace(/\r\n?/g, '\n').trim();
  const lines = text.split('\n');
  const heading = lines.findIndex((line) => KEY_POINTS_HEADING.test(line));
  let bodyLines: string[];
  let pointLines: string[];
  if (heading >= 0) {
    bodyLines = lines.slice(0, heading);
    pointLines = lines.slice(heading + 1);
  } else {
    // No heading: a block of timestamped lines that ends the answer.
    let first = lines.length;
    while (first > 0 && pointOf(lines[first - 1] ?? '') !== undefined) first--;
    bodyLines = lines.slice(0, first);
    pointLines = lines.slice(first);
  }
  const summary = withoutSummaryHeading(bodyLines).join(' ').replace(/\s+/g, ' ').trim();
  const keyPoints = pointLines
    .map(pointOf)
    .filter((point): point is ClaimedKeyPoint => point !== undefined);
  return { summary: summary === '' && keyPoints.length === 0 ? text : summary, keyPoints };
}
