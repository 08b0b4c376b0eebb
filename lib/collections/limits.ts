// Bounds of a collection request that the page for people (web/) shares with the API's schemas,
// in a module without zod so the page's bundle stays small.

/** How many videos of a playlist or channel a collection reads: `limit`. */
export const COLLECTION_LIMIT = { min: 1, max: 200, default: 25 } as const;
