// Where a collection's videos come from: the playlist or channel of a URL, read through the
// YouTube client chain's lister (lib/youtube/collections), made on first use with the
// operator's credentials (the proxy).
import type { Config } from '../config';
import { operatorCredentialsFrom } from '../credentials';
import { once } from '../util/once';
import { collectionListerFromConfig } from '../youtube/collections/browse';
import { parseCollectionUrl } from '../youtube/collections/url';
import type { CollectionServiceDeps } from './service';

/** The reader of a URL's playlist or channel: its form checked at once, read when called. */
export function collectionSourceFrom(config: Config): CollectionServiceDeps['source'] {
  const lister = once(async () =>
    collectionListerFromConfig(config, await operatorCredentialsFrom(config)),
  );
  return (url) => {
    const target = parseCollectionUrl(url);
    return async (options) => (await lister()).list(target, options);
  };
}
