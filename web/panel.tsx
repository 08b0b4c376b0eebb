// A card of the account's settings (API keys, connected apps): its title and what it is for,
// and its contents behind "Show …", fetched and mounted only while open (a key just made is gone
// from the page once the panel closes). Every such card opens and closes the same way.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

interface PanelProps {
  /** The ids' stem: `<id>-title`, `<id>-toggle`, `<id>-panel`. */
  id: string;
  title: string;
  hint: ComponentChildren;
  /** What the toggle shows and hides, e.g. "API keys". */
  what: string;
  children: ComponentChildren;
}

export function Panel({ id, title, hint, what, children }: PanelProps) {
  const [open, setOpen] = useState(false);
  return (
    <section class={`card ${id}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} tabIndex={-1}>
        {title}
      </h2>
      <p class="hint">{hint}</p>
      <button
        type="button"
        id={`${id}-toggle`}
        class="secondary"
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => setOpen(!open)}
      >
        {open ? `Hide ${what}` : `Show ${what}`}
      </button>
      {open && <div id={`${id}-panel`}>{children}</div>}
    </section>
  );
}
