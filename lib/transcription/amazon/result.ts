// What a finished Transcribe job wrote: its JSON result beside the audio in the bucket, read as
// the lines of a transcript (audio segments, or the words of older results cut into sentences).
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import * as z from '../../schema';
import type { Heard } from '../backend';
import { RESULTS_PREFIX } from '../bucket';
import { transcriptionError } from '../errors';

/** Where a job writes its result. */
export const resultKey = (job: string) => `${RESULTS_PREFIX}${job}.json`;

/** The parts of Transcribe's result file this service reads. */
export const resultSchema = z.object({
  results: z.object({
    language_code: z.optional(z.string()),
    // One line per stretch of speech, with its text and times (as strings of seconds).
    audio_segments: z.optional(
      z.array(z.object({ transcript: z.string(), start_time: z.string(), end_time: z.string() })),
    ),
    // Older results have only words and punctuation marks.
    items: z.optional(
      z.array(
        z.object({
          type: z.string(),
          start_time: z.optional(z.string()),
          end_time: z.optional(z.string()),
          alternatives: z.array(z.object({ content: z.string() })),
        }),
      ),
    ),
  }),
});

/** What the result file says. */
export async function read(
  aws: { s3: S3Client; bucket: string },
  name: string,
  language: string | undefined,
): Promise<Heard> {
  const { s3, bucket } = aws;
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: resultKey(name) }));
  let json: unknown;
  try {
    json = JSON.parse((await object.Body?.transformToString('utf8')) ?? '');
  } catch {
    json = undefined;
  }
  const parsed = resultSchema.safeParse(json);
  if (!parsed.success)
    throw transcriptionError('Amazon Transcribe wrote a result this service cannot read');
  const { results } = parsed.data;
  const heard: Heard = { segments: segmentsOf(results) };
  const said = language ?? results.language_code;
  if (said) heard.language = said;
  return heard;
}

/**
 * The lines of a Transcribe result: its audio segments, or (results written before Transcribe
 * had them) its words cut into sentences at their closing punctuation.
 */
export function segmentsOf(results: z.output<typeof resultSchema>['results']): Heard['segments'] {
  const ms = (seconds: string | undefined) => Math.round(Number(seconds ?? 0) * 1000);
  if (results.audio_segments) {
    return results.audio_segments.map((segment) => ({
      startMs: ms(segment.start_time),
      endMs: ms(segment.end_time),
      text: segment.transcript,
    }));
  }
  const lines: Heard['segments'] = [];
  let line: Heard['segments'][number] | undefined;
  for (const item of results.items ?? []) {
    const content = item.alternatives[0]?.content ?? '';
    if (item.type === 'punctuation') {
      if (line) line.text += content;
      if (line && /[.!?]$/.test(content)) line = undefined;
      continue;
    }
    if (!line) {
      line = { startMs: ms(item.start_time), endMs: ms(item.end_time), text: content };
      lines.push(line);
    } else {
      line.text += ` ${content}`;
      line.endMs = ms(item.end_time);
    }
  }
  return lines;
}
