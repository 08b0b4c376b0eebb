// The signed-in page: the summary form, what it opened (a job, its summary and questions about
// its video; or a collection), the history, the API keys, connected apps and deleting the
// account. What is open is in the address, so a reload, Back and a shared link bring
// it back. Every call that the API refuses with 401 signs the person out, keeping what they
// wrote in the form (session.ts keeps the draft).
import { useState } from 'preact/hooks';
import { ConnectedApps } from '../account/connected-apps';
import { DeleteAccount } from '../account/delete-account';
import { ApiKeys } from '../account/keys';
import { ApiError } from '../api';
import { useCollection } from '../collections/use-collection';
import { withSummary } from '../place';
import type { PageSettings } from '../settings';
import { usePlaces } from '../use-place';
import { SummaryForm } from './form';
import { History } from './history';
import { Opened } from './opened';
import { useRequest } from './use-request';
import { useShown } from './use-shown';

interface WorkspaceProps {
  token: string;
  settings: PageSettings;
  /** A call was refused with 401 (or failed unexpectedly): back to Sign in. */
  onSignedOut: (error: unknown) => void;
  /** The person deleted their account. */
  onAccountDeleted: () => void;
}

export function Workspace({ token, settings, onSignedOut, onAccountDeleted }: WorkspaceProps) {
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const failed = (error: unknown) => {
    if (error instanceof ApiError) request.showProblem(error.problem);
    else onSignedOut(error);
  };
  const following = useCollection(token, failed, changed);
  const summary = useShown(token, {
    onFailure: failed,
    onChanged: changed,
    onProblem: (problem) => request.showProblem(problem),
  });
  const request = useRequest(token, settings, {
    onSummary: (shown) => {
      summary.show(shown);
      following.clear();
      changed();
      go(shown.id ? { summary: shown.id } : {});
    },
    startCollection: async (body) => {
      const id = await following.start(body);
      summary.show(undefined);
      changed();
      go({ collection: id });
    },
    onFailure: onSignedOut,
  });
  const { place, arrivals, go } = usePlaces((arrived) => {
    if (arrived.summary) void summary.openId(arrived.summary);
    else summary.show(undefined);
    if (arrived.collection) void following.open(arrived.collection);
    else following.clear();
  });

  return (
    <>
      <SummaryForm
        draft={request.draft}
        onEdit={request.edit}
        errors={request.errors}
        busy={request.busy}
        collecting={request.collecting}
        models={settings.models}
        onSubmit={request.submit}
      />
      <Opened
        token={token}
        settings={settings}
        place={place}
        arrivals={arrivals}
        onGo={go}
        shown={summary.shown}
        onCancel={summary.cancel}
        following={following}
        onOpenVideo={(id) => summary.openId(id)}
        onSignedOut={onSignedOut}
      />
      <History
        token={token}
        version={version}
        current={summary.shown?.job}
        onOpen={(job) => {
          summary.openJob(job);
          go(withSummary(place, job.id));
        }}
        onSignedOut={onSignedOut}
      />
      <ApiKeys token={token} onSignedOut={onSignedOut} />
      <ConnectedApps token={token} onSignedOut={onSignedOut} />
      <DeleteAccount token={token} onDeleted={onAccountDeleted} onSignedOut={onSignedOut} />
    </>
  );
}
