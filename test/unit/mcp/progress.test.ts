// What summarize_video tells a client while it waits: MCP wants each progress notification's
// number above the one before, so a video without captions counts its transcribed parts, then
// goes on counting from there through its summarised parts.
import { describe, expect, it } from 'vitest';
import { progressReporter } from '../../../lib/mcp/tools';

type Stage = 'queued' | 'transcript' | 'transcribing' | 'summarizing' | 'combining' | 'done';

describe('progressReporter', () => {
  it('counts transcribed parts, then summarised ones after them, only ever upwards', () => {
    const sent: [number, number | undefined, string][] = [];
    const report = progressReporter((progress, total, message) => {
      sent.push([progress, total, message ?? '']);
    });
    const at = (stage: Stage, done: number, total: number) =>
      report({ stage, parts_done: done, parts_total: total });

    at('transcript', 0, 0);
    at('transcribing', 0, 3);
    at('transcribing', 1, 3);
    at('transcribing', 3, 3);
    at('summarizing', 0, 2);
    at('summarizing', 1, 2);
    at('done', 2, 2);

    expect(sent).toEqual([
      [0, undefined, 'Reading the transcript'],
      [1, 3, 'No captions: transcribing the audio: 1 of 3 parts'],
      [3, 3, 'No captions: transcribing the audio: 3 of 3 parts'],
      [4, 5, 'Summarising the parts: 1 of 2 parts'],
      [5, 5, 'Done: 2 of 2 parts'],
    ]);
  });

  it('counts a captioned video’s summarised parts from zero', () => {
    const sent: number[] = [];
    const report = progressReporter((progress) => sent.push(progress));

    report({ stage: 'summarizing', parts_done: 1, parts_total: 4 });
    report({ stage: 'summarizing', parts_done: 2, parts_total: 4 });

    expect(sent).toEqual([1, 2]);
  });
});
