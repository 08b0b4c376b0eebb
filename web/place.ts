// Where the person is on the page, kept in its address (`?summary=…`, `?collection=…`,
// `&question=…`): a reload, Back and Forward, and a link shared with someone signed in bring the
// same summary, collection and question back. Each opening is a history entry of its own.
import { useEffect, useState } from 'preact/hooks';

/** What is open: a summary (a job's id), a collection, and the question asked about it. */
export interface Place {
  summary?: string;
  collection?: string;
  question?: string;
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
  const question = params.get('question')?.trim().slice(0, QUESTION_MAX);
  return {
    ...(summary ? { summary } : {}),
    ...(collection ? { collection } : {}),
    ...((summary || collection) && question ? { question } : {}),
  };
}

/** The address's query for a place ('' for none). */
export function placeSearch(place: Place): string {
  const params = new URLSearchParams();
  if (place.summary) params.set('summary', place.summary);
  if (place.collection) params.set('collection', place.collection);
  if (place.question && (place.summary || place.collection)) {
    params.set('question', place.question);
  }
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

/** Puts a place in the address: a new history entry, unless it is where the page already is. */
export function goTo(place: Place, { replace = false } = {}): void {
  const search = placeSearch(place);
  if (search === window.location.search) return;
  // Relative to the page, so it works under any base path; no query at all for no place.
  const url = search === '' ? window.location.pathname : search;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
}

/** Calls `onPlace` with the place in the address now (a reload, a shared link), and at Back. */
export function usePlace(onPlace: (place: Place) => void): void {
  useEffect(() => {
    const listener = () => onPlace(readPlace(window.location.search));
    listener();
    window.addEventListener('popstate', listener);
    return () => window.removeEventListener('popstate', listener);
  }, []);
}

/**
 * The page's place: what is open, how many places were read from the address (a question
 * there is asked again at each), and `go`, which opens a new one. `onArrive` opens what a place
 * read from the address names.
 */
export function usePlaces(onArrive: (place: Place) => void) {
  const [place, setPlace] = useState<Place>({});
  const [arrivals, setArrivals] = useState(0);
  usePlace((arrived) => {
    setPlace(arrived);
    setArrivals((n) => n + 1);
    onArrive(arrived);
  });
  const go = (next: Place) => {
    goTo(next);
    setPlace(next);
  };
  return { place, arrivals, go };
}
