// The questions area's route: POST /ask, with the area's own schemas.
import { askBodySchema, askResponseSchema } from '../ask/schemas';
import { GatewayTimeoutError, ValidationError } from '../errors';
import { type RouteDef, route, withBody } from './route';
import { videoAndModel } from './video';

export const askRoutes = {
  ask: route({
    method: 'POST',
    path: '/ask',
    function: 'ask',
    auth: true,
    tag: 'questions',
    summary: 'Ask a question about a YouTube video, with citations of the moments that answer it',
    description:
      "Answers a question from the video's transcript, within the request (ASK_DEADLINE_MS, 25 s at most; a slower answer is a 504 and never a job). The extractive model answers with the passages that best match the question (BM25+), in the speaker's own words; a language model answers in its words, with [m:ss] marks that are checked against the transcript: each is moved to the caption near that time that says it, or dropped. Every citation's start_seconds is the start of a caption of this video and its url opens this video there. A question the video does not address gets an answer saying so and no citation. Answers are cached per video, caption language, model and question (compared without case, spacing or Unicode form); a cached answer does not count against the daily quota, any other takes a unit of it.",
    body: { schema: askBodySchema, contentTypes: ['application/json'] },
    responses: {
      200: { description: 'The answer and its citations', schema: askResponseSchema },
      ...withBody,
      ...videoAndModel,
      422: {
        description:
          'Invalid fields (a question empty or over 500 characters, an unknown model, a refused video_url), a video without usable captions, or a model whose context cannot hold a passage of the transcript (context-too-small)',
        example: new ValidationError([{ field: 'question', message: 'Write a question.' }]),
      },
      503: {
        description:
          'YouTube blocked us, the model is throttled, or the model named is misconfigured on this server (server-misconfigured, with allowed_models); see Retry-After',
      },
      504: {
        description: 'YouTube or the model did not answer before the deadline',
        example: new GatewayTimeoutError(
          'model-timeout',
          'The model did not answer in time; try again later, or with a faster model.',
        ),
      },
    },
  }),
} as const satisfies Record<string, RouteDef>;
