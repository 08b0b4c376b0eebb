// Where the person is on the page, kept in its address (`?summary=…`, `?collection=…`,
// `&question=…` about the summary, `&collection_question=…` about the collection): a reload,
// Back and Forward, and a link shared with someone signed in bring the same summary,
// collection and questions back. Each opening is a history entry of its own.

/** What is open: a summary (a job's id), a collection, and the question asked about each. */
export interface Place {
  summary?: string;
  collection?: string;
  question?: string;
  collectionQuestion?: string;
}

/** An id the API gives: anything else in the address is ignored, never sent on. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;
/** Longer than any question the API takes: a longer one is refused by it, with its own words. */
const QUESTION_MAX = 1_000;

export function readPlace(search: string): Place {
  const params = new URLSearchParams(search);
  const id = (name: string) => {
    const value = params.get(name);
    return value && ID.test(value) ? value : undefined;
  };
  const summary = id('summary');
  const collection = id('collection');
  const text = (name: string) => params.get(name)?.trim().slice(0, QUESTION_MAX);
  const question = text('question');
  const collectionQuestion = text('collection_question');
  return {
    ...(summary ? { summary } : {}),
    ...(collection ? { collection } : {}),
    ...(summary && question ? { question } : {}),
    ...(collection && collectionQuestion ? { collectionQuestion } : {}),
  };
}

/** Another summary opened where the person is: the collection and its question stay. */
export function withSummary({ question: _asked, ...place }: Place, summary: string): Place {
  return { ...place, summary };
}

/** The address's query for a place ('' for none). */
export function placeSearch(place: Place): string {
  const params = new URLSearchParams();
  if (place.summary) params.set('summary', place.summary);
  if (place.collection) params.set('collection', place.collection);
  if (place.summary && place.question) params.set('question', place.question);
  if (place.collection && place.collectionQuestion) {
    params.set('collection_question', place.collectionQuestion);
  }
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
