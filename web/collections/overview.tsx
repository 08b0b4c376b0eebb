// A finished collection's overview: the whole in a few paragraphs, then its themes, each with the
// moments of the videos it rests on as links to them (naming the video, as a key point names its
// time); "Copy as Markdown" puts all of it, and the list of videos, on the clipboard.
import { useEffect, useRef } from 'preact/hooks';
import type { Collection } from '../api';
import { CopyMarkdown } from '../copy-markdown';
import { citedMoments } from '../summaries/ask';
import { Moments } from '../summaries/summary';
import { paragraphsOf } from '../text';
import { collectionMarkdown, videoTitles } from './format';

/** A collection's citations as moments, each naming its video. */
export function collectionMoments(
  collection: Pick<Collection, 'videos'>,
  citations: readonly NonNullable<Collection['overview']>['themes'][number]['citations'][number][],
) {
  const titles = videoTitles(collection);
  return citedMoments(citations).map((moment, at) => {
    const videoId = citations[at]?.video_id ?? '';
    return { ...moment, video: titles.get(videoId) ?? videoId };
  });
}

export function OverviewView({ collection }: { collection: Collection }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { overview } = collection;

  // The overview arrived while the person waited on the card: it takes the focus, as a summary
  // does at the end of a job; one reading elsewhere on the page keeps their place.
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body || active.id === 'collection-title') {
      heading.current?.focus();
    }
  }, [collection.id]);

  if (!overview) return null;
  return (
    <>
      <h3 id="collection-overview-title" tabIndex={-1} ref={heading}>
        Overview
      </h3>
      <p class="byline">
        {overview.videos} videos · {overview.word_count} words · {overview.model}
      </p>
      {paragraphsOf(overview.summary).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {overview.themes.length > 0 && <h3>Themes</h3>}
      {overview.themes.map((theme) => (
        <div class="theme" key={theme.title}>
          <h4>{theme.title}</h4>
          <p>{theme.summary}</p>
          {theme.citations.length > 0 && (
            <Moments
              moments={collectionMoments(collection, theme.citations)}
              label={`Moments of “${theme.title}”`}
            />
          )}
        </div>
      ))}
      <CopyMarkdown markdown={collectionMarkdown(collection)} what="The collection" />
    </>
  );
}
