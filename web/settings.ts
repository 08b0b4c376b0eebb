// What the page knows of this deployment: the models it offers, named in the HTML by the server,
// so the page needs no request (and no inline script) to learn them.

export interface PageSettings {
  models: string[];
  defaultModel: string;
}

export function readSettings(doc: Document): PageSettings {
  const meta = (name: string) =>
    doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
  let models: string[] = [];
  try {
    const listed: unknown = JSON.parse(meta('tubesum-models') || '[]');
    if (Array.isArray(listed)) models = listed.filter((name) => typeof name === 'string');
  } catch {
    // An empty list: the form then sends no model, and the server uses its default.
  }
  return { models, defaultModel: meta('tubesum-default-model') };
}
