// Static files the service serves itself (Swagger UI's, the page's): kept in memory once, plain
// and gzip-compressed, and sent compressed to clients that accept it.
import { gzipSync } from 'node:zlib';
import { type Reply, text } from '../reply';

/** A file's text, and its gzip-compressed bytes in base64 (as API Gateway takes a binary body). */
export interface StaticFile {
  plain: string;
  gzip: string;
}

/** Compresses a file once, for every later reply. */
export function staticFile(content: string | Buffer): StaticFile {
  const raw = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return { plain: raw.toString('utf8'), gzip: gzipSync(raw).toString('base64') };
}

/** The file, gzip-compressed when `acceptEncoding` allows it; either way Vary: Accept-Encoding. */
export function staticFileReply(
  file: StaticFile,
  contentType: string,
  acceptEncoding: string | undefined,
  headers: Record<string, string>,
): Reply {
  if (/\bgzip\b/.test(acceptEncoding ?? '')) {
    return {
      ...text(200, file.gzip, contentType, {
        ...headers,
        'Content-Encoding': 'gzip',
        Vary: 'Accept-Encoding',
      }),
      isBase64Encoded: true,
    };
  }
  return text(200, file.plain, contentType, { ...headers, Vary: 'Accept-Encoding' });
}
