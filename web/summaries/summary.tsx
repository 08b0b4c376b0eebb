// A finished summary: the video's title and channel, the summary, its chapters and key points as
// links to their moments on YouTube (as the answers to questions cite theirs); "Copy as Markdown"
// puts all of it on the clipboard.
import { useEffect, useRef } from 'preact/hooks';
import type { Summary } from '../api';
import { CopyMarkdown } from '../copy-markdown';
import { summaryMarkdown } from '../markdown';
import { paragraphsOf } from '../text';
import { clock } from '../times';
import { Timeline } from './timeline';

/** A moment of the video (a key point, a citation): what is said there, and the link to it. */
export interface Moment {
  start_seconds: number;
  text: string;
  url: string;
  /** The time is estimated (a transcription without times): shown as about that time. */
  time_estimated?: true;
  /** The video it is in, when the moments are of several (a collection's). */
  video?: string;
}

/** Moments as links that open the video at each one, in a new tab, time first. */
export function Moments({ moments, label }: { moments: readonly Moment[]; label?: string }) {
  return (
    <ol class="key-points" aria-label={label}>
      {moments.map((moment) => (
        <li key={`${moment.video ?? ''}-${moment.start_seconds}-${moment.text}`}>
          <a href={moment.url} target="_blank" rel="noopener noreferrer">
            <span class="time">
              {moment.time_estimated ? (
                <abbr title="About this time: the transcription gave no exact times">
                  ~{clock(moment.start_seconds)}
                </abbr>
              ) : (
                clock(moment.start_seconds)
              )}
            </span>{' '}
            {moment.video !== undefined && <span class="video">{moment.video}: </span>}
            {moment.text}
          </a>
        </li>
      ))}
    </ol>
  );
}

/** The video's chapters: each a link to its start, with what it says. */
function Chapters({ chapters }: { chapters: NonNullable<Summary['chapters']> }) {
  return (
    <ol class="chapters" aria-label="Chapters">
      {chapters.map((chapter) => (
        <li key={chapter.start_seconds}>
          <a href={chapter.url} target="_blank" rel="noopener noreferrer">
            <span class="time">{clock(chapter.start_seconds)}</span> {chapter.title}
          </a>
          <p>{chapter.summary}</p>
        </li>
      ))}
    </ol>
  );
}

export function SummaryView({ summary }: { summary: Summary }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { metadata } = summary;

  // A new summary takes the focus, so keyboard and screen reader users land on it.
  useEffect(() => {
    heading.current?.focus();
  }, [summary]);

  return (
    <article class="card summary" aria-labelledby="summary-title">
      <h2 id="summary-title" tabIndex={-1} ref={heading}>
        {metadata.title}
      </h2>
      <p class="byline">
        {metadata.channel_title} · {summary.word_count} words · {metadata.model}
      </p>
      {paragraphsOf(summary.summary).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <Timeline summary={summary} />
      {summary.chapters && summary.chapters.length > 0 && (
        <>
          <h3>Chapters</h3>
          <Chapters chapters={summary.chapters} />
        </>
      )}
      {summary.key_points && summary.key_points.length > 0 && (
        <>
          <h3>Key points</h3>
          {metadata.transcript_timing === 'estimated' && (
            <p class="hint">
              Times marked ~ are estimated: the transcription of this video gave no times.
            </p>
          )}
          <Moments moments={summary.key_points} />
        </>
      )}
      <CopyMarkdown markdown={summaryMarkdown(summary)} what="The summary" />
    </article>
  );
}
