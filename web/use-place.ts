// The page's address as the page's state: a place put in it (history.pushState) and read back
// from it at a reload, a shared link, Back and Forward (popstate).
import { useEffect, useState } from 'preact/hooks';
import { type Place, placeSearch, readPlace } from './place';

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
