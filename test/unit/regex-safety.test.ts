// Untrusted text (captions, model answers, video descriptions) must not meet a pattern that
// backtracks: one that scanned a caption to its end from every "[" took 11 s, a line of spaces
// held the event loop for seconds (issue 19). Timing a parse proved it only on an idle machine;
// here recheck reads each pattern and tells whether any input makes matching super-linear. It
// decides from the pattern's automaton; a pattern with a lookaround it searches by fuzzing
// instead, which finds an attack or does not (weaker than a proof: keep such patterns simple).
// Deterministic: no time limits (only step limits and a fixed seed), so the verdict is the same
// on a loaded machine and on each of recheck's backends (its native binary, Java, or plain
// JavaScript where neither is installed; only the speed differs). A check that never ends is
// stopped by vitest's test timeout.
import { readFileSync } from 'node:fs';
import { check, type Diagnostics } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The modules that read untrusted text, and every pattern they hold is checked. */
const UNTRUSTED_READERS = [
  'lib/ask/citations.ts', // a model's answer and its [m:ss] marks
  'lib/ask/prompt.ts', // a model's answer ("NOT IN VIDEO")
  'lib/summaries/key-points.ts', // a model's answer: summary, headings, key points
  'lib/transcripts/timed-line.ts', // timed lines of answers and descriptions
  'lib/transcripts/data-block.ts', // a description's chapters
  'lib/util/text.ts', // a model's summary and key points, cut at a sentence end (cutText)
  'lib/summaries/extractive/sentences.ts', // captions: cues, sentences
  'lib/summaries/extractive/selection.ts', // captions' sentences, cut at a clause
  'lib/summaries/extractive/content-words.ts', // captions' words
  'lib/transcripts/fillers.ts', // captions' sentences and their openings
  'lib/transcripts/spoken.ts', // captions run together, as an offline answer shows them
  'lib/transcripts/captions.ts', // captions: cues, sentence openings
  'lib/summaries/chapters/chapter.ts', // chapter titles and summaries (models', captions')
  'lib/transcripts/creator-chapters.ts', // a description's chapters
  'lib/summaries/chapters/model.ts', // a model's chapters
  'lib/summaries/chapters/segments.ts', // captions' sentences: transition phrases
  'lib/summaries/chapters/titles.ts', // captions' words and sentences as titles
  'lib/summaries/chapters/finish.ts', // a model's chapter summaries
  'lib/summaries/llm/parts.ts', // captions' words, counted
  'lib/transcripts/terms.ts', // answers, captions and questions as search terms
  'lib/util/words.ts', // every text whose words are counted
  'lib/mcp/collection-text.ts', // titles, overviews and answers written as Markdown
  'lib/util/markdown.ts', // titles, summaries and key points written as Markdown
];

/**
 * Modules whose patterns built at run time are one character class each, matched once or
 * anchored (lib/util/text.ts: "what shows nothing", "\\p{RGI_Emoji}"): linear whatever the input.
 * Their literals are checked as the others' are.
 */
const BUILDS_CLASSES = new Set(['lib/util/text.ts']);

interface Pattern {
  where: string;
  source: string;
  flags: string;
}

/** Every regular expression literal of a module, read by TypeScript's own parser. */
function patternsOf(file: string): Pattern[] {
  const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const patterns: Pattern[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) {
      const literal = node.getText(source);
      const end = literal.lastIndexOf('/');
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      patterns.push({
        where: `${file}:${line + 1}`,
        source: literal.slice(1, end),
        flags: literal.slice(end + 1),
      });
    }
    // A pattern built at run time cannot be read here: none of these modules may build one,
    // but for those that build only single character classes (BUILDS_CLASSES).
    if (
      !BUILDS_CLASSES.has(file) &&
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      /\bRegExp$/.test(node.expression.getText(source))
    ) {
      throw new Error(`${file} builds a RegExp at run time; check it some other way`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return patterns;
}

// Time limits off: recheck's defaults (10 s in all, 250 ms and 1 s for its fuzzing stages)
// would make the verdict depend on how busy the machine is.
const DETERMINISTIC = {
  timeout: null,
  incubationTimeout: null,
  attackTimeout: null,
  seedingTimeout: null,
} as const;

const verdict = (diagnostics: Diagnostics) =>
  diagnostics.status === 'vulnerable'
    ? `${diagnostics.complexity.summary}, e.g. ${diagnostics.attack.pattern}`
    : diagnostics.status === 'unknown'
      ? `unknown: ${JSON.stringify(diagnostics.error)}`
      : diagnostics.complexity.summary;

const checked = UNTRUSTED_READERS.flatMap(patternsOf);

describe('patterns that read untrusted text', () => {
  it('are all found', () => {
    // Each module holds at least one; a parser that found none would pass everything below.
    for (const file of UNTRUSTED_READERS) {
      expect(
        checked.some((pattern) => pattern.where.startsWith(`${file}:`)),
        file,
      ).toBe(true);
    }
    for (const { source, flags } of checked) expect(() => new RegExp(source, flags)).not.toThrow();
  });

  for (const { where, source, flags } of checked) {
    it(`${where} /${source}/${flags} matches in linear time`, async () => {
      const diagnostics = await check(source, flags, DETERMINISTIC);

      expect(diagnostics.status, verdict(diagnostics)).toBe('safe');
    });
  }
});

describe('the ReDoS checker', () => {
  it.each([
    // The caption cue pattern issue 19 replaced: quadratic on a caption of "[".
    ['polynomial', /\[[^\]]*\]|♪[^♪]*♪|\*[^*\s]+(?:\s+[^*\s]+)+\*/gu],
    // One this test found in the offline summarizer (now a loop: lib/util/text.ts).
    ['polynomial', /[,;:\-–—]+$/u],
    ['exponential', /(a+)+$/],
  ])('finds %s backtracking in %s', async (complexity, pattern) => {
    const diagnostics = await check(pattern.source, pattern.flags, DETERMINISTIC);

    expect(diagnostics.status).toBe('vulnerable');
    expect(diagnostics.status === 'vulnerable' && diagnostics.complexity.type).toBe(complexity);
  });
});
