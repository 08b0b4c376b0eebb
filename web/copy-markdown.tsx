// "Copy as Markdown" (a summary, a collection): the button, what came of it said beside it, and
// where the browser offers no clipboard (the page served over plain http to another machine),
// the Markdown shown to copy by hand.
import { useEffect, useState } from 'preact/hooks';

/** `markdown` is what is copied; `what` names it for the hand-copy box ("The summary"). */
export function CopyMarkdown({ markdown, what }: { markdown: string; what: string }) {
  const [copied, setCopied] = useState('');
  const [manual, setManual] = useState<string>();

  // Another text to copy: what was said of the last one goes.
  useEffect(() => {
    setCopied('');
    setManual(undefined);
  }, [markdown]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(markdown);
      setCopied('Copied as Markdown.');
    } catch {
      setManual(markdown);
      setCopied('The clipboard is not available here: copy the text below.');
    }
  };

  return (
    <>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy as Markdown
        </button>
        <span role="status">{copied}</span>
      </div>
      {manual !== undefined && (
        <textarea class="manual-copy" aria-label={`${what} as Markdown`} readOnly value={manual} />
      )}
    </>
  );
}
