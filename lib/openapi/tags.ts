// The document's tags: one per area of the route table (RouteDef['tag']), named and described.
import type { RouteDef } from '../routes/route';

export const TAGS: Record<RouteDef['tag'], { name: string; description: string }> = {
  service: { name: 'Service', description: 'Whether the service runs' },
  accounts: {
    name: 'Accounts',
    description: 'Registration, log-in (bearer tokens), API keys and deleting an account',
  },
  summaries: { name: 'Summaries', description: 'Summaries of YouTube videos' },
  collections: {
    name: 'Collections',
    description:
      'Playlists and channels summarized as one: each video, an overview with themes, and questions across the videos',
  },
  questions: {
    name: 'Questions',
    description: 'Questions about YouTube videos, answered with citations of their moments',
  },
  agents: {
    name: 'Agents',
    description:
      'The Model Context Protocol endpoint: summaries, transcripts and questions as tools for AI agents',
  },
  oauth: {
    name: 'OAuth',
    description:
      'How AI apps (claude.ai, Claude Desktop, ChatGPT, MCP clients) connect to /mcp for a person: OAuth 2.1 with PKCE, and the person’s connected apps',
  },
  docs: { name: 'Documentation', description: 'This document and the interactive docs' },
  page: { name: 'Page', description: 'The web page for people, at /' },
};
