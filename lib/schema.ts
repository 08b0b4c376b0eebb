// zod, as the service uses it: the tree-shakable build (zod/mini), about 30 KB in a Lambda
// bundle where classic zod takes about 97 KB whatever one uses of it. zod/mini ships no error
// messages of its own; the English ones are set here, once, for every schema.
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
