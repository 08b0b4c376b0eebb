// Questions as the answer cache compares them: one question, however it is typed.
import { describe, expect, it } from 'vitest';
import { normaliseQuestion } from '../../../lib/ask/question';
import { answerKey } from '../../../lib/ask/service';

describe('normaliseQuestion', () => {
  it('folds case, Unicode form and spacing', () => {
    const forms = [
      'What is a kernel?',
      '  what IS a   kernel? ',
      'ＷＨＡＴ is a kernel？'.replace('？', '?'),
      'What\tis\na kernel?',
    ];

    expect(new Set(forms.map(normaliseQuestion))).toEqual(new Set(['what is a kernel?']));
  });

  it('folds composed and decomposed accents, ligatures and the sharp s alike', () => {
    expect(normaliseQuestion('Was heißt Café?')).toBe(normaliseQuestion('WAS HEISST CAFE\u0301?'));
    expect(normaliseQuestion('ﬁlters')).toBe('filters');
  });

  it('keeps what changes the question: words, their order, punctuation', () => {
    expect(normaliseQuestion('Is it fast?')).not.toBe(normaliseQuestion('It is fast?'));
    expect(normaliseQuestion('Kernels?')).not.toBe(normaliseQuestion('Kernels!'));
  });
});

describe('answerKey', () => {
  const key = {
    videoId: 'py5byOOHZM8',
    model: 'extractive',
    question: 'What is a kernel?',
  };

  it('is the same for the same normalised question, and bounded whatever its length', () => {
    expect(answerKey({ ...key, question: ' WHAT is a  kernel? ' })).toBe(answerKey(key));
    // 500 × U+FDFA grows to 9,000 characters under NFKC: the key holds a hash of it.
    expect(answerKey({ ...key, question: '\uFDFA'.repeat(500) }).length).toBeLessThan(120);
  });

  it('differs by video, caption language, model and question', () => {
    const keys = [
      answerKey(key),
      answerKey({ ...key, videoId: 'GJLlxj_dtq8' }),
      answerKey({ ...key, language: 'de' }),
      answerKey({ ...key, model: 'nova-micro' }),
      answerKey({ ...key, question: 'What is a filter?' }),
    ];

    expect(new Set(keys).size).toBe(keys.length);
    // The caption language as a tag: its case does not matter.
    expect(answerKey({ ...key, language: 'PT-br' })).toBe(answerKey({ ...key, language: 'pt-BR' }));
  });
});
