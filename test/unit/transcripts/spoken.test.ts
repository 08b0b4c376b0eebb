// Captions run together as an offline answer shows them: cues out, sentences closed where a
// capitalised filler opens one, fillers out; on the real Computerphile transcript's passages.
import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../../lib/ask/passages';
import { cleanCaption } from '../../../lib/transcripts/captions';
import { spokenText } from '../../../lib/transcripts/spoken';
import { onlyFillersDropped } from '../../support/fillers';
import { loadSharedTranscript } from '../../support/transcripts';

/** A filler opening a sentence, or said inside one ("And so on" is a phrase, not a filler). */
const FILLER_AT_START =
  /(?:^|[.!?] )(?:Um|Uh|Ok|Okay|So|Well|Right|Yeah|You know|I mean|And(?! so (?:on|forth)))\b/;
const FILLER_INSIDE = /\b(?:um|uh)\b|, you know,|, I mean,/i;

describe('spokenText', () => {
  it('cuts captions run together into sentences and takes their fillers out', () => {
    expect(
      spokenText(
        "we want to do that. Um? So one way is, you know, a kernel [offscreen] Uh, well, it's coded in, um, but slow",
      ),
    ).toBe("We want to do that. One way is a kernel. It's coded in but slow");
  });

  it('closes a caption that stopped without a full stop before a capitalised filler', () => {
    expect(spokenText('watch that video You know, it has a good host, right?')).toBe(
      'Watch that video. It has a good host, right?',
    );
    // Not before a name, nor before "I".
    expect(spokenText('things like Sobel operators and I mean it')).toBe(
      'Things like Sobel operators and I mean it',
    );
  });

  it('leaves a text without fillers as it is', () => {
    const text = 'Kernels find edges. You know the answer.';
    expect(spokenText(text)).toBe(text);
  });

  it('is empty when only cues and fillers are said', () => {
    expect(spokenText('[Music] Um? Uh, ok.')).toBe('');
  });

  it('only ever takes out fillers and cues from the real passages, and leaves no filler', () => {
    let changed = 0;
    for (const { text } of passagesOf(loadSharedTranscript())) {
      const shown = spokenText(text);
      expect(onlyFillersDropped(cleanCaption(text), shown), `${text}\n${shown}`).toBe(true);
      expect(shown).not.toMatch(FILLER_AT_START);
      expect(shown).not.toMatch(FILLER_INSIDE);
      if (shown !== text) changed++;
    }
    expect(changed).toBeGreaterThan(20);
  });
});
