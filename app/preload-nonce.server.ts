import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";

// Remix's <Scripts nonce> puts the nonce on its scripts but not on its <link rel="modulepreload">
// tags, which a 'strict-dynamic' policy then refuses (decision 0028). The server adds it.
const PRELOAD = '<link rel="modulepreload"';

export function withPreloadNonce(html: string, nonce: string): string {
  return html.replaceAll(PRELOAD, `${PRELOAD} nonce="${nonce}"`);
}

// How many characters at the end of `text` could begin a preload tag cut by the chunk boundary.
function partialTail(text: string): number {
  for (let n = Math.min(PRELOAD.length - 1, text.length); n > 0; n--) if (PRELOAD.startsWith(text.slice(-n))) return n;
  return 0;
}

/** The same, on a streamed page: a tag cut between two chunks is held back until the next. */
export function preloadNonceStream(nonce: string): Transform {
  const decoder = new StringDecoder("utf8");
  let carry = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = carry + decoder.write(chunk);
      const keep = partialTail(text);
      carry = text.slice(text.length - keep);
      done(null, withPreloadNonce(text.slice(0, text.length - keep), nonce));
    },
    flush(done) {
      done(null, withPreloadNonce(carry + decoder.end(), nonce));
    },
  });
}
