// Who a client_id names: a registration of this deployment, or (a URL) the client's metadata
// document, fetched and kept a while; either way UntrustedClientError, the error page, when it
// cannot be trusted, since nothing may go back to a client not known.
import type { Cache } from '../../store/cache';
import { RANDOM_ID_PATTERN } from '../../util/random-id';
import { ClientMetadataError } from '../clients/client-metadata';
import { type ClientStore, isMetadataDocumentUrl, type OAuthClient } from '../clients/clients';
import { UntrustedClientError } from '../errors';
import { secretHash } from './secrets';

/** Finds the client a client_id names: a registration, or a metadata document (cached). */
export interface ClientDirectory {
  /** @throws UntrustedClientError when there is no such client, or its document is refused. */
  find(clientId: string, now: number): Promise<OAuthClient>;
}

export function createClientDirectory(deps: {
  clients: Pick<ClientStore, 'get'>;
  /** Documents fetched lately, by URL. */
  documents: Cache<OAuthClient>;
  fetchDocument: (url: string) => Promise<OAuthClient>;
}): ClientDirectory {
  return {
    async find(clientId, now) {
      if (isMetadataDocumentUrl(clientId)) {
        const key = `OAUTHCIMD#${secretHash(clientId)}`;
        const cached = await deps.documents.get(key);
        if (cached) return cached;
        try {
          const client = await deps.fetchDocument(clientId);
          await deps.documents.put(key, client);
          return client;
        } catch (error) {
          if (!(error instanceof ClientMetadataError)) throw error;
          throw new UntrustedClientError(`The app cannot be verified: ${error.message}.`, {
            cause: error,
          });
        }
      }
      const client = RANDOM_ID_PATTERN.test(clientId)
        ? await deps.clients.get(clientId, now)
        : undefined;
      if (!client) {
        throw new UntrustedClientError(
          'This app is not registered here (or its registration expired): connect it again from the app.',
        );
      }
      return client;
    },
  };
}
