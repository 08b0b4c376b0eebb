// What a caption line says, read as speech: its cues are not speech, and a capital after a
// line that stopped without a full stop usually opens a sentence.

// Caption cues such as [Music], [offscreen], ♪ lyrics ♪ or *dog barks* are not speech; a single
// word in asterisks is emphasis (*it*) and stays. No cue spans its own opening character, so
// each attempt stops at the next one: linear, even on a caption of 100,000 "[".
const CUE = /\[[^[\]]*\]|♪[^♪]*♪|\*[^*\s]+(?:\s+[^*\s]+)+\*/gu;

/** A caption without its cues ([Music], ♪ lyrics ♪, *laughs*), its spaces made single. */
export function cleanCaption(text: string): string {
  return text.replace(CUE, ' ').replace(/\s+/g, ' ').trim();
}

const FIRST_PERSON = /^["'“‘(]?I(?:['’](?:m|ve|ll|d))?\b/u;

// Manual captions often leave the full stop off a line when the next line starts a sentence.
export function startsSentence(text: string): boolean {
  return /^["'“‘(]?\p{Lu}/u.test(text) && !FIRST_PERSON.test(text);
}
