// The MCP configuration of a new key (web/account/mcp-config.ts), as the README and docs/mcp.md
// give it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeCodeCommand, mcpEndpoint, mcpJsonConfig } from '../../../../web/account/mcp-config';

describe('the MCP configuration of a new key', () => {
  const key = `tsk_${'A'.repeat(43)}`;
  const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
  const manual = readFileSync(new URL('../../../../docs/mcp.md', import.meta.url), 'utf8');

  it('names the endpoint beside the page, under a base path too', () => {
    expect(mcpEndpoint('http://127.0.0.1:3000/')).toBe('http://127.0.0.1:3000/mcp');
    expect(mcpEndpoint('https://abc.example/prod/?x=1#top')).toBe('https://abc.example/prod/mcp');
  });

  it('gives Claude Code the command of the README and docs/mcp.md, with this endpoint and the key', () => {
    for (const page of [readme, manual]) {
      const documented = /^claude mcp add .*$/m.exec(page)?.[0] ?? 'missing';

      expect(claudeCodeCommand('https://HOST/mcp', key)).toBe(documented.replace('tsk_…', key));
    }
  });

  it('gives Cursor the mcp.json of docs/mcp.md, the key left to the environment', () => {
    const block = /Cursor \(`~\/\.cursor\/mcp\.json`[\s\S]*?```json\n([\s\S]*?)```/.exec(
      manual,
    )?.[1];
    const config = mcpJsonConfig('https://HOST/mcp');

    expect(JSON.parse(config)).toEqual(JSON.parse(block ?? 'null'));
    expect(config).not.toContain('tsk_');
  });
});
