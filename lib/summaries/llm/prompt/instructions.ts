// The instructions of a call (system prompt): the rules about untrusted data, and the form of
// the answer (summary, key points, chapters) with its headings and language.
import { untrustedDataRules } from '../../../transcripts/data-block';
import { formatTimestamp } from '../../../transcripts/timed-line';
import { type ChapterAsk, chaptersAsked, type PromptContext, type Step } from '../prompt';

/** Headings of the answer; kept in English whatever the summary's language, so we can find them. */
const SUMMARY_HEADING = 'SUMMARY:';
const KEY_POINTS_HEADING = 'KEY POINTS:';
const CHAPTERS_HEADING = 'CHAPTERS:';

/** "German (de)" for "de": models follow a language's name better than its tag. */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

function languageRule(context: PromptContext): string {
  return context.summaryLanguage === undefined
    ? 'Write in the language of the transcript'
    : `Write in ${languageName(context.summaryLanguage)}, whatever the language of the transcript`;
}

/** The rule of a call's chapters (chaptersAsked says there are some). */
function chapterRule(step: Step, ask: ChapterAsk): string {
  const scope = step.kind === 'part' ? 'this part of the transcript' : 'the video';
  if (ask.kind === 'make') {
    return (
      `- Divide ${scope} into about ${ask.count} chapters where its subject changes, in order. ` +
      'Start each with the [m:ss] mark of the passage where it begins, copied from the marks ' +
      `in the data (the first chapter at the first mark of ${scope}); never make up a time. ` +
      'Give it a title of at most eight words, and on the next line one or two sentences on ' +
      'what is said in it.'
    );
  }
  const listed =
    step.kind === 'part'
      ? 'The creator divided the video into chapters; those that start in this part (at ' +
        `[${formatTimestamp(ask.fromMs)}] or later, before [${formatTimestamp(ask.toMs)}]) are ` +
        'listed under "Chapters:" in the data.'
      : 'The creator divided the video into the chapters listed under "Chapters:" in the data.';
  return (
    `- ${listed} For each of them, give its [m:ss] mark and title as listed, and on the next ` +
    'line one or two sentences on what is said in it.'
  );
}

function answerForm(step: Step, context: PromptContext): string[] {
  const chapters = context.chapters && chaptersAsked(context) > 0 ? context.chapters : undefined;
  if (context.keyPoints === 0 && !chapters) {
    return [
      `- ${languageRule(context)}, as plain prose without headings, lists or preamble. ` +
        'Output only the summary.',
      `- Aim for about ${step.words} words.`,
    ];
  }
  const headings = 1 + (context.keyPoints > 0 ? 1 : 0) + (chapters ? 1 : 0);
  const form = [
    `- ${languageRule(context)}. Answer in exactly this form, keeping the ${headings === 3 ? 'three' : 'two'} headings in ` +
      'English as they are:',
    SUMMARY_HEADING,
    `<the summary: plain prose, no headings or lists, about ${step.words} words>`,
  ];
  if (context.keyPoints > 0)
    form.push(KEY_POINTS_HEADING, '[m:ss] <one key point in one sentence>');
  if (chapters) {
    form.push(
      CHAPTERS_HEADING,
      '[m:ss] <chapter title>',
      '<one or two sentences on what the chapter says>',
    );
  }
  if (context.keyPoints > 0) {
    form.push(
      `- Give at most ${context.keyPoints} key points, one per line, in the order of the video. ` +
        'Start each with the [m:ss] mark of the transcript passage it comes from, copied from ' +
        'the marks in the data (or from the key points of the part summaries); never make up a time.',
    );
  }
  if (chapters) form.push(chapterRule(step, chapters));
  return form;
}

/** The instructions; the data markers carry a random nonce the transcript cannot predict. */
export function systemPrompt(tag: string, step: Step, context: PromptContext): string {
  return [
    'You write faithful, readable summaries of YouTube videos.',
    '',
    ...untrustedDataRules(
      tag,
      "a video's title, channel, publish date, description and chapters, and its transcript " +
        'or summaries of parts of it',
    ),
    '- Use only information from the data; do not invent facts. The title, description and ' +
      'chapters only help to understand the transcript: summarise what the video says.',
    ...answerForm(step, context),
  ].join('\n');
}
