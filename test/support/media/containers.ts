// DASH audio files of any length as YouTube serves them, without encoding a sound: WebM (Opus,
// itags 249/250/251) with its Cues ahead of the clusters, and fragmented MP4 (AAC, itags
// 139/140) with a sidx after the moov. Every structure a demuxer reads is real (ffprobe lists
// every packet and the right duration); the payloads are pseudo-random bytes behind a plausible
// start (an Opus TOC byte; a silent AAC frame), so the files are to cut, probe and serve, not to
// decode. Deterministic per seed.
import type { IndexedFormat } from '../../../lib/youtube/audio/segments';
import { AAC_FRAME, AAC_RATE, AAC_SILENCE, writeFragment, writeMp4Init } from './mp4-boxes';
import {
  E,
  OPUS_FRAME_MS,
  writeCluster,
  writeEbmlHeader,
  writeInfoAndTracks,
} from './webm-elements';
import { ByteWriter, Noise } from './writer';

/** A generated file and what a player answer would say of it (ranges inclusive, as there). */
export interface GeneratedAudio {
  bytes: Buffer;
  mimeType: string;
  initRange: { start: number; end: number };
  indexRange: { start: number; end: number };
  /** Its real length: a whole number of frames. */
  durationMs: number;
}

/** What the service reads of a format: the player answer's inclusive ranges made exclusive. */
export function indexedFormat(audio: Omit<GeneratedAudio, 'durationMs'>): IndexedFormat {
  return {
    mimeType: audio.mimeType,
    initRange: { start: audio.initRange.start, end: audio.initRange.end + 1 },
    indexRange: { start: audio.indexRange.start, end: audio.indexRange.end + 1 },
    contentLength: audio.bytes.length,
  };
}

interface AudioShape {
  durationMs: number;
  /** The file's size over its length, roughly (payloads vary ±25 % per frame). */
  bytesPerSecond: number;
  seed?: number;
}

/**
 * A WebM (Opus) file as YouTube serves it: EBML header, Segment (known size), SeekHead, Info,
 * Tracks, Cues, then clusters of `clusterMs` of 20 ms frames.
 */
export function webmAudio(shape: AudioShape & { clusterMs?: number }): GeneratedAudio {
  const { bytesPerSecond, clusterMs = 5000, seed = 1 } = shape;
  const frames = Math.max(1, Math.round(shape.durationMs / OPUS_FRAME_MS));
  const durationMs = frames * OPUS_FRAME_MS;
  const perCluster = Math.max(1, Math.floor(Math.min(clusterMs, 32_000) / OPUS_FRAME_MS));
  const clusters = Math.ceil(frames / perCluster);
  const noise = new Noise(seed);
  const w = new ByteWriter(Math.ceil((durationMs / 1000) * bytesPerSecond * 1.3) + 65_536);
  writeEbmlHeader(w);
  w.ebmlId(E.segment);
  const segmentSizeAt = w.at;
  w.ebmlSize(0, 8);
  const origin = w.at;
  // Positions are fixed-width uints, patched once the clusters are written.
  const seekAt: number[] = [];
  w.element(E.seekHead, () => {
    for (const id of [E.info, E.tracks, E.cues]) {
      w.element(E.seek, () => {
        w.ebmlId(E.seekId).ebmlSize(4, 1).uint(id, 4).ebmlUint(E.seekPosition, 0);
        seekAt.push(w.at - 8);
      });
    }
  });
  const infoAt = w.at - origin;
  const tracksAt = writeInfoAndTracks(w, durationMs) - origin;
  const cuesStart = w.at;
  const positionAt: number[] = [];
  w.element(E.cues, () => {
    for (let i = 0; i < clusters; i++) {
      w.element(0xbb, () => {
        w.ebmlUint(0xb3, i * perCluster * OPUS_FRAME_MS);
        w.element(0xb7, () => w.ebmlUint(0xf7, 1, 1).ebmlUint(0xf1, 0));
        positionAt.push(w.at - 8);
      });
    }
  });
  const cuesEnd = w.at;
  const meanPayload = Math.max(2, (bytesPerSecond * OPUS_FRAME_MS) / 1000 - 8);
  for (let i = 0; i < clusters; i++) {
    w.patch(positionAt[i] ?? 0, w.at - origin, 8);
    const first = i * perCluster;
    writeCluster(w, noise, first, Math.min(frames, first + perCluster), meanPayload);
  }
  // Past its length marker (0x01), the Segment's size is 7 bytes.
  w.patch(segmentSizeAt + 1, w.at - origin, 7);
  for (const [i, at] of seekAt.entries()) {
    w.patch(at, [infoAt, tracksAt, cuesStart - origin][i] ?? 0, 8);
  }
  return {
    bytes: w.result(),
    mimeType: 'audio/webm; codecs="opus"',
    initRange: { start: 0, end: cuesStart - 1 },
    indexRange: { start: cuesStart, end: cuesEnd - 1 },
    durationMs,
  };
}

/**
 * A fragmented MP4 (AAC) file as YouTube serves it: ftyp, moov, a sidx, then a moof and mdat of
 * `fragmentMs` per fragment.
 */
export function mp4Audio(shape: AudioShape & { fragmentMs?: number }): GeneratedAudio {
  const { bytesPerSecond, fragmentMs = 10_000, seed = 1 } = shape;
  const framesPerSecond = AAC_RATE / AAC_FRAME;
  const frames = Math.max(1, Math.round((shape.durationMs / 1000) * framesPerSecond));
  const durationMs = (frames * AAC_FRAME * 1000) / AAC_RATE;
  const perFragment = Math.max(1, Math.round((fragmentMs / 1000) * framesPerSecond));
  const fragments = Math.ceil(frames / perFragment);
  const noise = new Noise(seed);
  const w = new ByteWriter(Math.ceil((durationMs / 1000) * bytesPerSecond * 1.3) + 65_536);
  writeMp4Init(w, durationMs);
  const sidxStart = w.at;
  const referencesAt: number[] = [];
  w.fullBox('sidx', 0, 0, () => {
    w.uint(1, 4).uint(AAC_RATE, 4).uint(0, 4).uint(0, 4).uint(0, 2).uint(fragments, 2);
    for (let i = 0; i < fragments; i++) {
      referencesAt.push(w.at);
      const length = Math.min(perFragment, frames - i * perFragment);
      // starts_with_SAP, SAP type 1: every AAC frame can start a decode.
      w.uint(0, 4)
        .uint(length * AAC_FRAME, 4)
        .uint(0x9000_0000, 4);
    }
  });
  const sidxEnd = w.at;
  const meanSize = Math.max(AAC_SILENCE.length * 2, bytesPerSecond / framesPerSecond - 8);
  for (let i = 0; i < fragments; i++) {
    const first = i * perFragment;
    const sizes = Array.from({ length: Math.min(perFragment, frames - first) }, () =>
      noise.around(meanSize, 0.25),
    );
    const start = w.at;
    writeFragment(w, i + 1, first, sizes, noise);
    w.patch(referencesAt[i] ?? 0, w.at - start, 4);
  }
  return {
    bytes: w.result(),
    mimeType: 'audio/mp4; codecs="mp4a.40.2"',
    initRange: { start: 0, end: sidxStart - 1 },
    indexRange: { start: sidxStart, end: sidxEnd - 1 },
    durationMs,
  };
}
