// The key of a summary record: which summary it is (video, caption track, model, length, summary
// language) and in which shape it was made. One record per key.
import { schemaVersion } from '../../schema-version';
import { summarizeResponseSchema } from '../schemas';
import type { Work } from './record';

// Set by the Lambda bundles (infra/bundling.ts): shapeVersion() as computed when they were built.
declare const __SUMMARY_SHAPE_VERSION__: string | undefined;

/**
 * The version part of every summary key, derived from the response schema itself: change the
 * shape of a summary and older records are no longer found (they expire by their TTL) instead
 * of being served in a shape the contract no longer describes. Built into a Lambda bundle,
 * otherwise computed once, on first use.
 */
export const shapeVersion = (() => {
  let version: string | undefined;
  return () => {
    version ??=
      typeof __SUMMARY_SHAPE_VERSION__ === 'string'
        ? __SUMMARY_SHAPE_VERSION__
        : schemaVersion(summarizeResponseSchema);
    return version;
  };
})();

/** The key of a summary: one record per key. */
export function summaryKey(work: Work): string {
  const track = work.language?.toLowerCase() ?? '*';
  const written = work.summaryLanguage?.toLowerCase() ?? '*';
  return `SUMMARY#${shapeVersion()}#${work.videoId}#${track}#${work.model}#${work.length}#${written}`;
}

/** summaryKey's parts (no part before the model holds a `#`), or undefined for another key. */
function partsOfKey(key: string): string[] | undefined {
  const parts = key.split('#');
  return parts[0] === 'SUMMARY' && parts.length === 7 ? parts : undefined;
}

/** The model a summary key was made for, or undefined for a key of another shape. */
export const modelOfKey = (key: string): string | undefined => partsOfKey(key)?.[4];

/** The video a summary key was made for, or undefined for a key of another shape. */
export const videoIdOfKey = (key: string): string | undefined => partsOfKey(key)?.[2];
