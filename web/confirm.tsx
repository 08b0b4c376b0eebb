// Every action that cannot be undone asks first, the same way: its button opens a question with
// the action (primary) and a way to keep things as they are, which has the focus, so Enter
// pressed twice never destroys anything. Keeping gives the focus back to the button.
import { useEffect, useState } from 'preact/hooks';

interface ConfirmProps {
  /** The button's id; the keeping button's is `keepId`. */
  id: string;
  keepId: string;
  /** The button's text, and its accessible name when the text alone is ambiguous in a list. */
  label: string;
  name?: string;
  /** The question asked, naming what goes and what follows. */
  question: string;
  confirmLabel: string;
  keepLabel: string;
  /** The action; the button waits, disabled, until it is done. */
  onConfirm: () => void | Promise<void>;
}

export function Confirm({ id, keepId, label, name, question, ...answer }: ConfirmProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  // What takes the focus after the next render: a new object each time.
  const [focus, setFocus] = useState<{ id: string }>();
  useEffect(() => {
    if (focus) document.getElementById(focus.id)?.focus();
  }, [focus]);

  if (!asking) {
    return (
      <button
        type="button"
        id={id}
        class="secondary"
        aria-label={name}
        onClick={() => {
          setAsking(true);
          setFocus({ id: keepId });
        }}
      >
        {label}
      </button>
    );
  }
  return (
    <fieldset class="confirm actions">
      <legend>{question}</legend>
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await answer.onConfirm();
          } finally {
            setBusy(false);
          }
        }}
      >
        {answer.confirmLabel}
      </button>
      <button
        type="button"
        id={keepId}
        class="secondary"
        onClick={() => {
          setAsking(false);
          setFocus({ id });
        }}
      >
        {answer.keepLabel}
      </button>
    </fieldset>
  );
}
