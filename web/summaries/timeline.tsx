// The summary as a picture: a bar as long as the video, its chapters as segments and its key
// points as marks below them, each a link to its moment on YouTube (in a new tab, as the lists
// below the bar). Pointing at or tabbing to a part names it under the bar; the same parts, in the
// video's order, are told as text in a disclosure for those who cannot see the bar.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Summary } from '../api';
import { clock } from '../times';
import {
  type Mark,
  marksOf,
  type Segment,
  type Span,
  segmentsOf,
  spanOf,
  timelineText,
} from './timeline-layout';

/** How a part of the bar came to be named: by the keyboard's focus, or by the pointer. */
type By = 'focus' | 'pointer';

/** What a part of the bar does when pointed at or focused: names itself under the bar. */
interface Naming {
  onName: (by: By, label: string | undefined) => void;
}

/** A link to a moment that names itself while pointed at or focused. */
function MomentLink({
  url,
  label,
  kind,
  children,
  onName,
}: Naming & {
  url: string;
  label: string;
  /** Its class. */
  kind: string;
  children?: ComponentChildren;
}) {
  // Only the keyboard's focus (:focus-visible) names a part: a link clicked keeps the focus, and
  // would otherwise hide what the pointer points at next.
  const focus = (event: FocusEvent) =>
    (event.currentTarget as HTMLElement).matches(':focus-visible') && onName('focus', label);
  return (
    <a
      class={kind}
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      onFocus={focus}
      onBlur={() => onName('focus', undefined)}
      onMouseEnter={() => onName('pointer', label)}
      onMouseLeave={() => onName('pointer', undefined)}
    >
      {children}
    </a>
  );
}

function Segments({ segments, onName }: Naming & { segments: readonly Segment[] }) {
  return (
    <ol class="timeline-chapters" aria-label="Parts of the video">
      {segments.map((segment) => (
        <li key={segment.number} style={{ left: `${segment.left}%`, width: `${segment.width}%` }}>
          <MomentLink
            url={segment.chapter.url}
            label={segment.label}
            kind={`timeline-segment${segment.number % 2 === 0 ? ' timeline-segment-even' : ''}`}
            onName={onName}
          >
            {segment.chapter.title}
          </MomentLink>
        </li>
      ))}
    </ol>
  );
}

function Marks({ marks, onName }: Naming & { marks: readonly Mark[] }) {
  const lanes = Math.max(1, ...marks.map((mark) => mark.lane + 1));
  return (
    <ol
      class="timeline-marks"
      aria-label="Key points on the timeline"
      style={{ '--lanes': String(lanes) }}
    >
      {marks.map((mark) => (
        <li key={mark.number} style={{ left: `${mark.left}%`, '--lane': String(mark.lane) }}>
          <MomentLink
            url={mark.point.url}
            label={mark.label}
            kind="timeline-mark"
            onName={onName}
          />
        </li>
      ))}
    </ol>
  );
}

/** "32:10 · 8 chapters · 6 key points", or how the length was had when YouTube did not say. */
function overview(span: Span, segments: number, marks: number): string {
  const parts = [
    span.known ? clock(span.seconds) : `Length unknown: shown up to ${clock(span.seconds)}`,
    segments > 0 && `${segments} chapter${segments === 1 ? '' : 's'}`,
    marks > 0 && `${marks} key point${marks === 1 ? '' : 's'}`,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The timeline of a summary; nothing for one without chapters or key points. */
export function Timeline({ summary }: { summary: Summary }) {
  // The focused part wins over the pointed one: Tab can scroll a part under a resting pointer.
  const [focused, setFocused] = useState<string | undefined>(undefined);
  const [pointed, setPointed] = useState<string | undefined>(undefined);
  const onName = (by: By, label: string | undefined) =>
    by === 'focus' ? setFocused(label) : setPointed(label);
  const span = spanOf(summary);
  const segments = segmentsOf(summary.chapters ?? [], span);
  const marks = marksOf(summary.key_points ?? [], span);
  if (segments.length === 0 && marks.length === 0) return null;

  return (
    <section class="timeline" aria-labelledby="timeline-title">
      <h3 id="timeline-title">Timeline</h3>
      <div class={`timeline-bar${segments.length === 0 ? ' timeline-rail' : ''}`}>
        {segments.length > 0 && <Segments segments={segments} onName={onName} />}
        {marks.length > 0 && <Marks marks={marks} onName={onName} />}
      </div>
      <p class="timeline-scale">
        <span>0:00</span>
        <span>{clock(span.seconds)}</span>
      </p>
      <p class="timeline-now">
        {focused ?? pointed ?? overview(span, segments.length, marks.length)}
      </p>
      <details class="timeline-text">
        <summary>The timeline as text</summary>
        <ol aria-label="The timeline as text">
          {timelineText(segments, marks).map((line) => (
            <li key={line.key}>{line.text}</li>
          ))}
        </ol>
      </details>
    </section>
  );
}
