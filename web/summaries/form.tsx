// The summary form: the link (a video, or a playlist or channel: then also how many of its
// videos), the length, the model and the language; what it sends, read from the draft, and the
// errors it shows by each field.
import { SUMMARY_LENGTH } from '../../lib/summaries/limits';
import { COLLECTION_LIMIT, type CollectionField } from '../collections/format';
import { ActionError, ModelField, TextField } from '../field';
import { type Draft, loadDraft } from '../session';
import type { PageSettings } from '../settings';

/** The fields both requests share (POST /summarize, POST /collections), and a collection's limit. */
export interface RequestFields {
  summary_length?: number;
  used_model?: string;
  summary_language?: string;
  limit?: number;
}

export type Errors = Partial<Record<CollectionField | 'action', string>>;

/** The draft kept from before (a sign-in, a reload), with the form's defaults. */
export function keptDraft(settings: PageSettings): Draft {
  const kept = loadDraft();
  return {
    video_url: kept.video_url ?? '',
    summary_length: kept.summary_length ?? String(SUMMARY_LENGTH.default),
    used_model: settings.models.includes(kept.used_model ?? '')
      ? (kept.used_model as string)
      : settings.defaultModel,
    summary_language: kept.summary_language ?? '',
    limit: kept.limit ?? String(COLLECTION_LIMIT.default),
  };
}

/** The draft's fields as a request, or the error of a number that is not one. */
export function readRequest(
  draft: Draft,
  collecting: boolean,
): { errors: Errors } | { body: RequestFields } {
  const length = draft.summary_length.trim();
  if (length !== '' && !/^\d+$/.test(length)) {
    const { min, max } = SUMMARY_LENGTH;
    return { errors: { summary_length: `Enter a whole number of words, ${min} to ${max}.` } };
  }
  const limit = Number(draft.limit.trim());
  const { min, max } = COLLECTION_LIMIT;
  if (collecting && !(Number.isInteger(limit) && limit >= min && limit <= max)) {
    return { errors: { limit: `Enter a whole number of videos, ${min} to ${max}.` } };
  }
  const language = draft.summary_language.trim();
  return {
    body: {
      ...(length === '' ? {} : { summary_length: Number(length) }),
      ...(draft.used_model ? { used_model: draft.used_model } : {}),
      ...(language === '' ? {} : { summary_language: language }),
      ...(collecting ? { limit } : {}),
    },
  };
}

interface SummaryFormProps {
  draft: Draft;
  onEdit: (field: keyof Draft) => (value: string) => void;
  errors: Errors;
  busy: boolean;
  /** The link is a playlist's or a channel's: the Videos field shows. */
  collecting: boolean;
  models: readonly string[];
  onSubmit: (event: Event) => void;
}

export function SummaryForm({
  draft,
  onEdit,
  errors,
  busy,
  collecting,
  models,
  onSubmit,
}: SummaryFormProps) {
  return (
    <form class="card" aria-labelledby="summarize-title" onSubmit={onSubmit} noValidate>
      <h2 id="summarize-title">Summarize a video</h2>
      <TextField
        id="video-url"
        label="Video URL"
        error={errors.video_url}
        value={draft.video_url}
        onValue={onEdit('video_url')}
        type="url"
        inputMode="url"
        placeholder="https://www.youtube.com/watch?v=…"
        hint="A video, or a playlist or channel: its videos are summarized, then as a whole."
        required
      />
      {collecting && (
        <TextField
          id="collection-limit"
          label="Videos"
          hint={`How many of its videos, ${COLLECTION_LIMIT.min} to ${COLLECTION_LIMIT.max}: a playlist's first, a channel's latest.`}
          error={errors.limit}
          value={draft.limit}
          onValue={onEdit('limit')}
          type="number"
          inputMode="numeric"
          min={COLLECTION_LIMIT.min}
          max={COLLECTION_LIMIT.max}
        />
      )}
      <div class="row">
        <TextField
          id="summary-length"
          label="Length (words)"
          error={errors.summary_length}
          value={draft.summary_length}
          onValue={onEdit('summary_length')}
          type="number"
          inputMode="numeric"
          min={SUMMARY_LENGTH.min}
          max={SUMMARY_LENGTH.max}
          step={25}
        />
        <ModelField
          id="used-model"
          label="Model"
          models={models}
          value={draft.used_model}
          onValue={onEdit('used_model')}
          error={errors.used_model}
        />
        <TextField
          id="summary-language"
          label="Summary language"
          error={errors.summary_language}
          hint="Optional, e.g. de or pt-BR; the video's by default."
          value={draft.summary_language}
          onValue={onEdit('summary_language')}
          autocomplete="off"
        />
      </div>
      <button type="submit" disabled={busy}>
        Summarize
      </button>
      <ActionError message={errors.action} />
    </form>
  );
}
