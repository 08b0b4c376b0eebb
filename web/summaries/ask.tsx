// A question about the video of the summary shown (POST /ask), or across a collection's videos
// (POST /collections/{id}/ask): the answer, and the moments it cites as links that open the
// video there, as key points do. Answers come within the request (up to ~25 s with a language
// model), so the form waits with its button disabled.
import { useEffect, useRef, useState } from 'preact/hooks';
import { type AskAnswer, call, type Problem } from '../api';
import { ActionError, type Errors, ModelField, TextField, useSubmit } from '../field';
import { messagesOf } from '../problems';
import type { PageSettings } from '../settings';
import { CITATION_CHARS, excerpt, paragraphsOf } from '../text';
import { type Moment, Moments } from './summary';

/** An answer as the page shows it: what was asked, by which model, and the moments it cites. */
export interface ShownAnswer {
  question: string;
  model: string;
  answer: string;
  moments: Moment[];
}

/** What asks: the question, and the model chosen (undefined where none can be). */
export type Asker = (question: string, model: string | undefined) => Promise<ShownAnswer>;

/** The answer's citations, each quote cut to an excerpt (its link opens the rest). */
export const citedMoments = (citations: readonly Moment[]): Moment[] =>
  citations.map((citation) => ({ ...citation, text: excerpt(citation.text, CITATION_CHARS) }));

/** Questions about one video (POST /ask), in the summary's caption language if it asked one. */
export function videoAsker(token: string, videoUrl: string, language: string | undefined): Asker {
  return async (question, model) => {
    const { body } = await call<AskAnswer>('POST', 'ask', {
      token,
      body: {
        video_url: videoUrl,
        question,
        ...(model ? { used_model: model } : {}),
        ...(language ? { language } : {}),
      },
    });
    return { ...body.metadata, answer: body.answer, moments: citedMoments(body.citations) };
  };
}

interface AskProps {
  /** What is asked about: names the form, its heading and its ids. */
  about: 'video' | 'collection';
  /** The models to answer with and the first choice; without, the server's (no Model field). */
  models?: { settings: PageSettings; initial: string };
  ask: Asker;
  /** A question to ask at once (the page's address held it). */
  initialQuestion?: string | undefined;
  /** A question was answered: the page's address keeps it. */
  onAsked?: (question: string) => void;
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

/** The form's state: the question, the model, the answer, and the one error. */
function useAsk({ about, models, ask, initialQuestion, onAsked, onSignedOut }: AskProps) {
  const [question, setQuestion] = useState(initialQuestion ?? '');
  const [usedModel, setUsedModel] = useState(() =>
    models && !models.settings.models.includes(models.initial)
      ? models.settings.defaultModel
      : (models?.initial ?? ''),
  );
  const [answer, setAnswer] = useState<ShownAnswer>();
  const sent = useSubmit(
    async () => {
      setAnswer(undefined);
      setAnswer(await ask(question, models ? usedModel : undefined));
      onAsked?.(question);
    },
    errorsOf,
    onSignedOut,
  );
  // The address's question is asked again, as the person asked it.
  useEffect(() => {
    if (initialQuestion) void sent.submit();
  }, []);
  // After a refusal the question has the focus back (its error, or the alert by the button, is
  // read with it), ready to be changed.
  useEffect(() => {
    const { errors } = sent;
    if (errors.question || errors.used_model || errors.form) {
      const field = errors.used_model ? 'ask-model' : 'question';
      document.getElementById(about === 'video' ? field : `collection-${field}`)?.focus();
    }
  }, [sent.errors]);
  return { question, setQuestion, usedModel, setUsedModel, answer, ...sent };
}

export function Ask(props: AskProps) {
  const { about, models } = props;
  // The video's ids are the page's first (its tests and links know them).
  const id = (name: string) => (about === 'video' ? name : `collection-${name}`);
  const form = useAsk(props);
  const { errors, editing } = form;

  return (
    <section class="card ask" aria-labelledby={id('ask-title')}>
      <h2 id={id('ask-title')}>
        {about === 'video' ? 'Ask about this video' : 'Ask about these videos'}
      </h2>
      <form onSubmit={form.submit} noValidate>
        <TextField
          id={id('question')}
          label="Question"
          hint={`In any language; the answer cites the moments ${about === 'video' ? 'that say it' : 'of the videos that say it'}.`}
          error={errors.question}
          value={form.question}
          onValue={editing(form.setQuestion)}
          autocomplete="off"
          required
        />
        {models && (
          <ModelField
            id={id('ask-model')}
            label="Model"
            models={models.settings.models}
            value={form.usedModel}
            onValue={editing(form.setUsedModel)}
            error={errors.used_model}
          />
        )}
        <button type="submit" disabled={form.busy}>
          Ask
        </button>
        <p role="status" class="hint">
          {form.busy
            ? `Looking for the answer in the ${about === 'video' ? 'video' : 'videos'}…`
            : ''}
        </p>
        <ActionError message={errors.form} />
      </form>
      {form.answer && <AnswerView answer={form.answer} titleId={id('answer-title')} />}
    </section>
  );
}

/** An answer: what was asked, by which model, the answer, and the moments it cites. */
function AnswerView({ answer, titleId }: { answer: ShownAnswer; titleId: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The answer takes the focus, as a new summary does.
  useEffect(() => {
    heading.current?.focus();
  }, [answer]);
  return (
    <div class="answer">
      <h3 id={titleId} tabIndex={-1} ref={heading}>
        Answer
      </h3>
      <p class="byline">
        “{answer.question}” · {answer.model}
      </p>
      {paragraphsOf(answer.answer).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {answer.moments.length > 0 && (
        <Moments moments={answer.moments} label="Moments the answer cites" />
      )}
    </div>
  );
}
