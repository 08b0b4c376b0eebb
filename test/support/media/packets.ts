// How an index's segments line up with the packets ffprobe lists: which segment each packet's
// bytes fall in, and the time of each segment's first packet.
import type { MediaIndex } from '../../../lib/youtube/audio/segments';
import type { Packet } from './ffmpeg';

/** Per segment, its packets' earliest time (ms); and how many packets fell in no segment. */
export function packetsBySegment(
  index: MediaIndex,
  packets: Packet[],
): { firstPtsMs: (number | undefined)[]; counts: number[]; outside: number } {
  const firstPtsMs: (number | undefined)[] = index.segments.map(() => undefined);
  const counts = index.segments.map(() => 0);
  let outside = 0;
  for (const packet of packets) {
    // Segments are in byte order: the last that starts at or before the packet holds it.
    let low = 0;
    let high = index.segments.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((index.segments[middle]?.bytes.start ?? 0) <= packet.pos) low = middle;
      else high = middle - 1;
    }
    const segment = index.segments[low];
    if (!segment || packet.pos < segment.bytes.start || packet.pos >= segment.bytes.end) {
      outside++;
      continue;
    }
    counts[low] = (counts[low] ?? 0) + 1;
    firstPtsMs[low] = Math.min(firstPtsMs[low] ?? packet.ptsMs, packet.ptsMs);
  }
  return { firstPtsMs, counts, outside };
}
