// How Amazon Transcribe's work is laid out, shared by the backend and the stack's
// grants (infra/constructs/audio-bucket.ts), so that the two name the same things.

/** Every job this service starts is named so; the worker may read only jobs of this name. */
export const JOB_NAME_PREFIX = 'tubesum-';
/** Where the audio and the results go in the bucket. */
export const AUDIO_PREFIX = 'audio/';
export const RESULTS_PREFIX = 'transcripts/';
