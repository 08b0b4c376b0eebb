// What the routes that read a YouTube video and call a model answer besides what every route
// with a body does (POST /summarize, POST /ask), shared by their two areas. Apart from route.ts,
// which every area imports: its problem examples are errors made at import, which a bundle
// keeps whether it uses them or not.
import { TooManyRequestsError } from '../errors';
import { videoUnavailable } from '../youtube/errors';
import type { ResponseDef } from './route';

export const videoAndModel = {
  404: {
    description: 'Video unavailable or private',
    example: videoUnavailable('Video unavailable'),
  },
  429: {
    description: 'Daily quota used up; see Retry-After',
    example: new TooManyRequestsError(
      36000,
      'You have used all 50 summaries and questions of today (UTC); cached ones stay available.',
      'quota-exceeded',
    ),
  },
  502: {
    description:
      'YouTube or the model answered with something unusable, or the model is not enabled',
  },
} satisfies Record<number, ResponseDef>;
