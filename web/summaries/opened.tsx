// What the summary form (or the page's address) opened: a collection, with questions across its
// videos once done; a job's progress, or how it ended; a summary, with questions about its video.
// A question asked goes into the address with what it is about.
import { CollectionCard } from '../collections/collection';
import { collectionAsker, type useCollection } from '../collections/use-collection';
import { watchUrl } from '../markdown';
import { type Place, withSummary } from '../place';
import type { PageSettings } from '../settings';
import { Ask, videoAsker } from './ask';
import { JobView } from './job';
import { SummaryView } from './summary';
import type { Shown } from './use-shown';

interface OpenedProps {
  token: string;
  settings: PageSettings;
  place: Place;
  /** How many places were read from the address: each arrival asks its question again. */
  arrivals: number;
  onGo: (place: Place) => void;
  shown: Shown | undefined;
  onCancel: () => void;
  following: ReturnType<typeof useCollection>;
  /** Opens a summary by its job's id; says whether it could. */
  onOpenVideo: (id: string) => Promise<boolean>;
  onSignedOut: (error: unknown) => void;
}

export function Opened(props: OpenedProps) {
  const { token, settings, place, arrivals, onGo, shown, following, onSignedOut } = props;
  const { collection } = following;
  const summary = shown?.summary ?? shown?.job?.result ?? undefined;
  return (
    <>
      {collection && (
        <CollectionCard
          collection={collection}
          onCancel={following.cancel}
          onOpenVideo={async ({ summary_id: id }) => {
            if (id && (await props.onOpenVideo(id))) onGo(withSummary(place, id));
          }}
        />
      )}
      {collection?.status === 'done' && (
        <Ask
          key={`${collection.id}-${arrivals}`}
          about="collection"
          ask={collectionAsker(token, collection)}
          initialQuestion={place.collectionQuestion}
          onAsked={(collectionQuestion) => onGo({ ...place, collectionQuestion })}
          onSignedOut={onSignedOut}
        />
      )}
      {shown?.job && !shown.job.result && <JobView job={shown.job} onCancel={props.onCancel} />}
      {summary && <SummaryView summary={summary} />}
      {summary && (
        <Ask
          // Another video, another conversation: what was asked about the last one goes.
          key={`${summary.metadata.video_id}-${arrivals}`}
          about="video"
          models={{ settings, initial: summary.metadata.model }}
          ask={videoAsker(token, watchUrl(summary.metadata.video_id), shown?.job?.request.language)}
          initialQuestion={place.question}
          onAsked={(question) => onGo({ ...place, question })}
          onSignedOut={onSignedOut}
        />
      )}
    </>
  );
}
