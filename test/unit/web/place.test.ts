// What the page's address says is open (web/place.ts): read from a query, written back to one.
import { describe, expect, it } from 'vitest';
import { placeSearch, readPlace, withSummary } from '../../../web/place';

describe('readPlace', () => {
  it('reads the summary, the collection and the question asked about each', () => {
    expect(
      readPlace(
        '?summary=job_1-A&collection=col2&question=What%20is%20it%3F&collection_question=Why',
      ),
    ).toEqual({
      summary: 'job_1-A',
      collection: 'col2',
      question: 'What is it?',
      collectionQuestion: 'Why',
    });
  });

  it('ignores an id that is no id, and a question about nothing', () => {
    expect(readPlace('?summary=../account&collection=a%20b')).toEqual({});
    expect(readPlace('?question=Why&collection_question=Why')).toEqual({});
    expect(readPlace('?summary=a&collection_question=Why')).toEqual({ summary: 'a' });
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

describe('withSummary', () => {
  it('opens another summary beside the collection, its question gone, the collection’s kept', () => {
    expect(
      withSummary(
        { summary: 'a', question: 'Why?', collection: 'c', collectionQuestion: 'How?' },
        'b',
      ),
    ).toEqual({ summary: 'b', collection: 'c', collectionQuestion: 'How?' });
  });
});
