// What the page's address says is open (web/place.ts): read from a query, written back to one.
import { describe, expect, it } from 'vitest';
import { placeSearch, readPlace } from '../../../web/place';

describe('readPlace', () => {
  it('reads the summary, the collection and the question', () => {
    expect(readPlace('?summary=job_1-A&collection=col2&question=What%20is%20it%3F')).toEqual({
      summary: 'job_1-A',
      collection: 'col2',
      question: 'What is it?',
    });
  });

  it('ignores an id that is no id, and a question about nothing', () => {
    expect(readPlace('?summary=../account&collection=a%20b')).toEqual({});
    expect(readPlace('?question=Why')).toEqual({});
    expect(readPlace('?authorize=abc')).toEqual({});
  });
});

describe('placeSearch', () => {
  it('writes what readPlace reads back', () => {
    const place = { summary: 'job_1', question: 'Wie geht’s & warum?' };
    expect(readPlace(placeSearch(place))).toEqual(place);
  });

  it('writes nothing for no place, and no question without what it is about', () => {
    expect(placeSearch({})).toBe('');
    expect(placeSearch({ question: 'Why?' })).toBe('');
  });
});
