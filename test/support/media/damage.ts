// Broken files for the readers' tests: a generated file's bytes copied and damaged, and read as
// the format its player answer describes (or as that description, changed).
import {
  type IndexedFormat,
  type MediaIndex,
  readMediaIndex,
} from '../../../lib/youtube/audio/segments';
import { type GeneratedAudio, indexedFormat } from './containers';

/** How to read `audio`'s bytes, or damaged copies of them. */
export function damageable(audio: GeneratedAudio): {
  read: (bytes: Uint8Array, edit?: Partial<IndexedFormat>) => MediaIndex;
  edited: (edit: (bytes: Buffer) => void) => Buffer;
} {
  const format = indexedFormat(audio);
  return {
    read: (bytes, edit = {}) => readMediaIndex(bytes, { ...format, ...edit }),
    edited: (edit) => {
      const copy = Buffer.from(audio.bytes);
      edit(copy);
      return copy;
    },
  };
}
