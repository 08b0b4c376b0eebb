// Where a collection's videos come from: the playlist or channel of a URL, read through the
// YouTube client chain's lister (lib/youtube/collections), loaded and made on first use with the
// operator's credentials (the proxy): a cold start that only reads collections loads none of it.
import type { Config } from '../config';
import { once } from '../util/once';
import { parseCollectionUrl } from '../youtube/collections/url';
import type { CollectionServiceDeps } from './service';

/** The reader of a URL's playlist or channel: its form checked at once, read when called. */
export function collectionSourceFrom(config: Config): CollectionServiceDeps['source'] {
  const lister = once(async () => {
    const [{ collectionListerFromConfig }, { operatorCredentialsFrom }] = await Promise.all([
      import('../youtube/collections/browse'),
      import('../aws/operator-credentials'),
    ]);
    return collectionListerFromConfig(config, await operatorCredentialsFrom(config));
  });
  return (url) => {
    const target = parseCollectionUrl(url);
    return async (options) => (await lister()).list(target, options);
  };
}
