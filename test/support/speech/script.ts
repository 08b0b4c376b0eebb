// What the speech tests say: a short lecture written for them (no text from elsewhere), about
// two minutes when espeak-ng speaks it (synthesize.ts). Plain common words only, every one of
// them in pocketsphinx's en-us dictionary (cmudict-en-us.dict; the language model build checks
// it): no digits, abbreviations or names a synthesizer would spell out differently.

/** The lecture, one sentence per entry, in the order it is spoken. */
export const LECTURE: readonly string[] = [
  'Good morning everyone, and welcome back to our course on the history of travel by sea.',
  'Today we will talk about how sailors found their way long before there were any maps of the open ocean.',
  'The first thing to understand is that most early sailors stayed close to the coast.',
  'They watched the land, the birds and the color of the water to know where they were.',
  'When they had to cross open water, they looked to the sky for help.',
  'The sun rises in the east and sets in the west, which gives a rough direction during the day.',
  'At night the stars were even more useful, because some of them hardly move at all.',
  'A sailor who could find the north star knew which way was north, even in the middle of the sea.',
  'The height of that star above the water also told him how far north he had traveled.',
  'Later, people built simple tools to measure that height with much more care.',
  'Knowing how far north you were was only half of the problem, however.',
  'The other half was knowing how far east or west you had gone, and that was much harder.',
  'To solve it, a sailor needed to know the exact time at home while he was far away.',
  'For many years the best clocks stopped working or lost time on a moving ship.',
  'Many ships were lost because the crew believed they were somewhere they were not.',
  'In the end, a patient clock maker spent most of his life building a clock that kept good time at sea.',
  'With that clock, a captain could compare the local noon with the time at home.',
  'Every hour of difference meant that the ship had moved a certain distance around the world.',
  'This idea changed travel by sea, and it made trade and exploration much safer.',
  'Today a small phone can tell us where we are within a few steps.',
  'Still, the same basic idea is behind it, because our position comes from very careful measures of time.',
  'For next week, please read the chapter on winds and currents, and think about how they helped these early sailors.',
  'Thank you for listening, and I will see you all on Thursday.',
];
