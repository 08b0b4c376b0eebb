// A collection (a playlist or a channel summarized as one) as the signed-in page shows it: its
// title, author and link; while it runs, its progress and Cancel (after a confirmation, as
// every destructive action asks); its videos in order, each with where it stands, a done one
// opening its summary; and once done, its overview.
import { useEffect, useRef } from 'preact/hooks';
import type { Collection } from '../api';
import { Confirm } from '../confirm';
import { ProgressBar } from '../summaries/job';
import { collectionEnded, collectionProgress, videoStatusWords } from './format';
import { OverviewView } from './overview';

type Video = Collection['videos'][number];

interface CollectionProps {
  collection: Collection;
  onCancel: () => Promise<void>;
  /** A done video's summary, opened as the history opens one. */
  onOpenVideo: (video: Video) => void;
}

const KIND_WORDS: Record<Collection['kind'], string> = {
  playlist: 'Playlist',
  channel: 'Channel: its latest videos',
};

export function CollectionCard({ collection, onCancel, onOpenVideo }: CollectionProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const running = !collectionEnded(collection);
  const { percent, words } = collectionProgress(collection);

  // A collection shown takes the focus, as a job does.
  useEffect(() => {
    heading.current?.focus();
  }, [collection.id]);

  // The confirmation's buttons went (cancelled, or it ended): the focus stays with the card.
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!running && lost) heading.current?.focus();
  }, [running]);

  return (
    <section class="card collection" aria-labelledby="collection-title">
      <h2 id="collection-title" tabIndex={-1} ref={heading}>
        {collection.title}
      </h2>
      <p class="byline">
        {KIND_WORDS[collection.kind]} · {collection.author} ·{' '}
        <a href={collection.url} target="_blank" rel="noopener noreferrer">
          Open on YouTube
        </a>
      </p>
      {running && <ProgressBar label="Videos summarized" percent={percent} words={words} />}
      <p aria-live="polite">{running ? words : ''}</p>
      {running && (
        <Confirm
          // Another collection, another question.
          key={collection.id}
          id="collection-cancel"
          keepId="collection-keep"
          label="Cancel"
          question={`Cancel “${collection.title}”? Its videos not yet started are not summarized; those under way finish.`}
          confirmLabel="Cancel the collection"
          keepLabel="Keep it going"
          onConfirm={onCancel}
        />
      )}
      {collection.status === 'cancelled' && (
        <p role="status">Cancelled: no more of its videos are summarized.</p>
      )}
      {collection.status === 'failed' && (
        <p class="error" role="alert">
          {collection.error?.detail ?? 'This collection failed.'}
        </p>
      )}
      {collection.overview && <OverviewView collection={collection} />}
      <Videos videos={collection.videos} onOpenVideo={onOpenVideo} />
    </section>
  );
}

/** The collection's videos in order, each with where it stands; a done one opens its summary. */
function Videos({
  videos,
  onOpenVideo,
}: {
  videos: readonly Video[];
  onOpenVideo: (video: Video) => void;
}) {
  return (
    <>
      <h3 id="collection-videos-title">Videos</h3>
      <ol class="videos" aria-labelledby="collection-videos-title">
        {videos.map((video) => (
          <li key={video.video_id}>
            {video.status === 'done' && video.summary_id ? (
              <button type="button" class="link" onClick={() => onOpenVideo(video)}>
                {video.title}
              </button>
            ) : (
              <span class="title">{video.title}</span>
            )}
            <span class={video.status === 'failed' ? 'when failed' : 'when'}>
              {videoStatusWords(video)}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}
