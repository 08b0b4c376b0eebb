// A finished summary: the video's title and channel, the summary, and the key points as links
// to their moments on YouTube; "Copy as Markdown" puts all of it on the clipboard.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Summary } from './api';
import { clock, summaryMarkdown } from './format';

export function SummaryView({ summary }: { summary: Summary }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState('');
  const [manual, setManual] = useState<string>();
  const { metadata } = summary;

  // A new summary takes the focus, so keyboard and screen reader users land on it.
  useEffect(() => {
    heading.current?.focus();
    setCopied('');
    setManual(undefined);
  }, [summary]);

  const copy = async () => {
    const markdown = summaryMarkdown(summary);
    try {
      await navigator.clipboard.writeText(markdown);
      setCopied('Copied as Markdown.');
    } catch {
      // No clipboard (a page served over plain http to another machine): let the person copy.
      setManual(markdown);
      setCopied('The clipboard is not available here: copy the text below.');
    }
  };

  return (
    <article class="card summary" aria-labelledby="summary-title">
      <h2 id="summary-title" tabIndex={-1} ref={heading}>
        {metadata.title}
      </h2>
      <p class="byline">
        {metadata.channel_title} · {summary.word_count} words · {metadata.model}
      </p>
      {summary.summary
        .split(/\n{2,}/)
        .filter((paragraph) => paragraph.trim() !== '')
        .map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      {summary.key_points && summary.key_points.length > 0 && (
        <>
          <h3>Key points</h3>
          <ol class="key-points">
            {summary.key_points.map((point) => (
              <li key={`${point.start_seconds}-${point.text}`}>
                <a href={point.url} target="_blank" rel="noopener noreferrer">
                  <span class="time">{clock(point.start_seconds)}</span> {point.text}
                </a>
              </li>
            ))}
          </ol>
        </>
      )}
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy as Markdown
        </button>
        <span role="status">{copied}</span>
      </div>
      {manual !== undefined && (
        <textarea
          class="manual-copy"
          aria-label="The summary as Markdown"
          readOnly
          value={manual}
        />
      )}
    </article>
  );
}
