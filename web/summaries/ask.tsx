// A question about the video of the summary shown (POST /ask): the answer, and the moments it
// cites as links that open the video there, as key points do. Answers come within the request
// (up to ~25 s with a language model), so the form waits with its button disabled.
import { useEffect, useRef, useState } from 'preact/hooks';
import { type AskAnswer, call, type Problem } from '../api';
import { ActionError, type Errors, ModelField, TextField, useSubmit } from '../field';
import { excerpt, messagesOf, paragraphsOf } from '../format';
import type { PageSettings } from '../settings';
import { Moments } from './summary';

/** How much of a citation's quote is listed under the answer (its link opens the rest). */
const CITATION_CHARS = 160;

interface AskProps {
  token: string;
  settings: PageSettings;
  videoUrl: string;
  /** The caption language the summary asked for, if it asked for one: the answer reads the same. */
  language?: string | undefined;
  /** The summary's model: the first choice to answer with. */
  model: string;
  onSignedOut: (error: unknown) => void;
}

/** By the question or the model when a field error names them; otherwise by the button. */
function errorsOf(problem: Problem): Errors {
  const fields = messagesOf(problem);
  if (fields.question || fields.used_model) {
    return { question: fields.question ?? '', used_model: fields.used_model ?? '' };
  }
  return { form: problem.detail };
}

export function Ask({ token, settings, videoUrl, language, model, onSignedOut }: AskProps) {
  const [question, setQuestion] = useState('');
  const [usedModel, setUsedModel] = useState(() =>
    settings.models.includes(model) ? model : settings.defaultModel,
  );
  const [answer, setAnswer] = useState<AskAnswer>();
  const heading = useRef<HTMLHeadingElement>(null);
  const { errors, busy, submit } = useSubmit(
    async () => {
      setAnswer(undefined);
      const { body } = await call<AskAnswer>('POST', 'ask', {
        token,
        body: {
          video_url: videoUrl,
          question,
          ...(usedModel ? { used_model: usedModel } : {}),
          ...(language ? { language } : {}),
        },
      });
      setAnswer(body);
    },
    errorsOf,
    onSignedOut,
  );

  // The answer takes the focus, as a new summary does; after a refusal the question has it back
  // (its error, or the alert by the button, is read with it), ready to be changed.
  useEffect(() => {
    if (answer) heading.current?.focus();
  }, [answer]);
  useEffect(() => {
    if (errors.question || errors.used_model || errors.form) {
      document.getElementById(errors.used_model ? 'ask-model' : 'question')?.focus();
    }
  }, [errors]);

  return (
    <section class="card ask" aria-labelledby="ask-title">
      <h2 id="ask-title">Ask about this video</h2>
      <form onSubmit={submit} noValidate>
        <TextField
          id="question"
          label="Question"
          hint="In any language; the answer cites the moments that say it."
          error={errors.question}
          value={question}
          onValue={setQuestion}
          autocomplete="off"
          required
        />
        <ModelField
          id="ask-model"
          label="Model"
          models={settings.models}
          value={usedModel}
          onValue={setUsedModel}
          error={errors.used_model}
        />
        <button type="submit" disabled={busy}>
          Ask
        </button>
        <p role="status" class="hint">
          {busy ? 'Looking for the answer in the video…' : ''}
        </p>
        <ActionError message={errors.form} />
      </form>
      {answer && (
        <div class="answer">
          <h3 id="answer-title" tabIndex={-1} ref={heading}>
            Answer
          </h3>
          <p class="byline">
            “{answer.metadata.question}” · {answer.metadata.model}
          </p>
          {paragraphsOf(answer.answer).map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {answer.citations.length > 0 && (
            <Moments
              moments={answer.citations.map((citation) => ({
                ...citation,
                text: excerpt(citation.text, CITATION_CHARS),
              }))}
              label="Moments the answer cites"
            />
          )}
        </div>
      )}
    </section>
  );
}
