// A key just made, shown this once with how to give it to an MCP client; and how a listed key's
// (or connected app's) use and expiry read.
import { useState } from 'preact/hooks';
import type { NewApiKey } from '../api';
import { dateTime } from '../times';
import { keyExpiry } from './key-lifetimes';
import { claudeCodeCommand, mcpEndpoint, mcpJsonConfig } from './mcp-config';

/** A key just made: the key, shown this once, and how to give it to an MCP client. */
export function MadeKey({ made, onDone }: { made: NewApiKey; onDone: () => void }) {
  const endpoint = mcpEndpoint(location.href);
  const command = claudeCodeCommand(endpoint, made.key);
  const config = mcpJsonConfig(endpoint);
  return (
    <div class="made-key">
      <h3 id="made-key-title" tabIndex={-1}>
        Your new key “{made.name}”
      </h3>
      <p>
        Copy it now: it is shown this once, and the service keeps only a hash of it. Keep it like a
        password.{' '}
        {made.expires_at ? (
          <>
            It works until <time dateTime={made.expires_at}>{dateTime(made.expires_at)}</time>.
          </>
        ) : (
          'It never expires: it works until you delete it.'
        )}
      </p>
      <label for="made-key">Key</label>
      <input id="made-key" readOnly value={made.key} spellcheck={false} />
      <Copy text={made.key} what="key" />
      <h4>Use it with an AI agent (MCP)</h4>
      <p>Claude Code:</p>
      <pre class="snippet">{command}</pre>
      <Copy text={command} what="command" />
      <p>
        Cursor (<code>~/.cursor/mcp.json</code>), with the key in the environment it starts from as{' '}
        <code>TUBESUM_API_KEY</code>:
      </p>
      <pre class="snippet">{config}</pre>
      <Copy text={config} what="configuration" />
      <p>
        Any other MCP client: the URL <code>{endpoint}</code> with the header{' '}
        <code>Authorization: Bearer</code> and the key.
      </p>
      <div class="actions">
        <button type="button" id="key-done" onClick={onDone}>
          Done: hide the key
        </button>
      </div>
    </div>
  );
}

/** When a key expires, or that it has expired (marked, as a problem is), or that it never will. */
export function Expiry({ at }: { at: string | null }) {
  if (at === null) return <>never expires</>;
  const expired = keyExpiry(at, Date.now()) === 'expired';
  return (
    <span class={expired ? 'expired' : undefined}>
      {expired ? 'expired' : 'expires'} <time dateTime={at}>{dateTime(at)}</time>
    </span>
  );
}

/** "Copy the …", and what came of it, said where the button is. */
function Copy({ text, what }: { text: string; what: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied.');
    } catch {
      // No clipboard (plain http to another machine): the text is on the page to select.
      setSaid(`The clipboard is not available here: select the ${what} and copy it.`);
    }
  };
  return (
    <div class="actions">
      <button type="button" onClick={copy}>
        Copy the {what}
      </button>
      <span role="status">{said}</span>
    </div>
  );
}

/** When a key or an app was last used, or that it never was. */
export function LastUsed({ at }: { at: string | null | undefined }) {
  if (!at) return <>never used</>;
  return (
    <>
      last used <time dateTime={at}>{dateTime(at)}</time>
    </>
  );
}
