// The offline answer to a question (answerByRetrieval) on the real Computerphile transcript: its
// text reads as sentences without fillers, while its citations quote the captions as they are,
// and the answer's own marks still pass the check a model's marks are held to (checkCitations).
import { describe, expect, it } from 'vitest';
import { answerByRetrieval } from '../../../lib/ask/answerers';
import { checkCitations } from '../../../lib/ask/citations';
import { passagesOf } from '../../../lib/ask/passages';
import { cleanCaption } from '../../../lib/transcripts/captions';
import { formatTimestamp } from '../../../lib/transcripts/timed-line';
import { onlyFillersDropped } from '../../support/fillers';
import { loadSharedMetadata, loadSharedTranscript, plainWords } from '../../support/transcripts';

const transcript = loadSharedTranscript();
const video = {
  transcript,
  metadata: loadSharedMetadata(),
  client: 'WEB',
  source: 'captions',
} as const;
const VIDEO = 'py5byOOHZM8';
const passages = passagesOf(transcript);

/** A filler opening a sentence, or said inside one ("And so on" is a phrase, not a filler). */
const FILLER_AT_START =
  /(?:^|[.!?] )(?:Um|Uh|Ok|Okay|So|Well|Right|Yeah|You know|I mean|And(?! so (?:on|forth)))\b/;
const FILLER_INSIDE = /\b(?:um|uh)\b|, you know,|, I mean,/i;
/** Questions whose passages are said with fillers ("trained, um, is", "things like, uh, sobel"). */
const QUESTIONS = [
  'How do kernel convolutions find edges, like the Sobel operator?',
  'How accurate is the CNN for root tips?',
  'Why use a library for back propagation?',
  'What shapes does it find on a face?',
];

describe('the offline answer', () => {
  it.each(QUESTIONS)(
    'to "%s" shows its passages without fillers, its citations as said',
    (question) => {
      const { answer, citations, answered } = answerByRetrieval({
        question,
        videoId: VIDEO,
        video,
      });

      expect(answered).toBe(true);
      const paragraphs = answer.split('\n\n');
      expect(paragraphs).toHaveLength(citations.length);
      citations.forEach((citation, i) => {
        const mark = ` [${formatTimestamp(citation.start_seconds * 1000)}]`;
        const paragraph = paragraphs[i] ?? '';
        expect(paragraph.endsWith(mark)).toBe(true);
        const shown = paragraph.slice(0, -mark.length);
        expect(shown).not.toMatch(FILLER_AT_START);
        expect(shown).not.toMatch(FILLER_INSIDE);
        // The words the captions say, fillers (and cues such as [offscreen]) aside, in order.
        expect(onlyFillersDropped(cleanCaption(citation.text), shown), shown).toBe(true);
        // The citation quotes the captions from its start, as they are.
        const at = transcript.segments.findIndex(
          (s) => s.offsetMs === citation.start_seconds * 1000,
        );
        expect(
          plainWords(citation.text).startsWith(plainWords(transcript.segments[at]?.text ?? '-')),
        ).toBe(true);
      });
      expect(
        citations.some(
          (citation) => FILLER_INSIDE.test(citation.text) || /\b(?:Um|Uh),/.test(citation.text),
        ),
      ).toBe(true);
    },
  );

  it.each(QUESTIONS)('to "%s" keeps every mark when checked as a model’s marks are', (question) => {
    const { answer, citations } = answerByRetrieval({ question, videoId: VIDEO, video });

    const checked = checkCitations(answer, VIDEO, transcript);

    // Each mark stays, moved at most to a caption of the passage it cites.
    expect(checked.citations).toHaveLength(citations.length);
    checked.citations.forEach((moved, i) => {
      const startMs = (citations[i]?.start_seconds ?? 0) * 1000;
      const next = passages.find((passage) => passage.startMs > startMs);
      expect(moved.start_seconds * 1000).toBeGreaterThanOrEqual(startMs);
      expect(moved.start_seconds * 1000).toBeLessThan(next?.startMs ?? Number.POSITIVE_INFINITY);
    });
  });
});
