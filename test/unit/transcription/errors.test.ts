// A transcription backend's words reach a client only as short plain text: a proxy's HTML error
// page, a stack trace or terminal escapes from a server are not the API's to pass on whole.
import { describe, expect, it } from 'vitest';
import {
  MAX_REASON_CHARS,
  plainReason,
  transcriptionMisconfigured,
  transcriptionRejected,
} from '../../../lib/transcription/errors';

describe('plainReason', () => {
  it('turns an HTML error page into its words', () => {
    const page =
      '<html><head><title>413 Request Entity Too Large</title></head><body>\n<center><h1>413 Request Entity Too Large</h1></center>\n<hr><center>nginx</center></body></html>';

    expect(plainReason(page)).toBe(
      '413 Request Entity Too Large 413 Request Entity Too Large nginx',
    );
  });

  it('removes control characters and bidi overrides, and collapses white space', () => {
    expect(plainReason('bad\u0000 file\u001b[31m\n\n\u202Eformat\t')).toBe('bad file[31m format');
  });

  it(`cuts a long reason to ${MAX_REASON_CHARS} characters`, () => {
    const said = plainReason(`${'word '.repeat(200)}end`);

    expect(said).toHaveLength(MAX_REASON_CHARS);
    expect(said.endsWith('…')).toBe(true);
  });
});

describe('transcription problems', () => {
  it('passes a refusal on as plain text in the detail and backend_reason', () => {
    const problem = transcriptionRejected('<p>Invalid file <b>format</b></p>');

    expect(problem.status).toBe(422);
    expect(problem.message).toBe(
      "The transcription service refused this video's audio: Invalid file format",
    );
    expect(problem.extensions).toEqual({ backend_reason: 'Invalid file format' });
  });

  it('tells the client transcription is unavailable and the operator what to fix', () => {
    const problem = transcriptionMisconfigured('start whisper.cpp’s server with --convert.');

    expect(problem).toMatchObject({ status: 502, type: 'transcription-misconfigured' });
    expect(problem.message).toMatch(/^Transcription of videos without captions is unavailable/);
    expect(problem.message).toMatch(/Operators: start whisper\.cpp’s server with --convert\.$/);
  });
});
