// After `remix vite:build`: writes a .br and a .gz beside each compressible build asset, so the
// server sends them as they are (server/http/cache/static-assets.ts) instead of compressing per request.
// Fonts (woff2), images and media are compressed already and are left alone; a variant that is not
// smaller than the file is not kept.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

export const COMPRESSIBLE = /\.(js|mjs|cjs|css|svg|json|map|txt|html|xml|webmanifest|wasm|ico|ttf|otf)$/i;

/** Compresses every compressible file under dir; returns what it wrote. */
export function precompressAssets(dir) {
  const summary = { files: 0, br: 0, gz: 0, bytes: 0, brBytes: 0, gzBytes: 0 };
  if (!fs.existsSync(dir)) return summary;
  for (const name of fs.readdirSync(dir, { recursive: true })) {
    const file = path.join(dir, name);
    if (!COMPRESSIBLE.test(name) || !fs.statSync(file).isFile()) continue;
    const body = fs.readFileSync(file);
    summary.files++;
    summary.bytes += body.length;
    const variants = {
      br: () =>
        zlib.brotliCompressSync(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          },
        }),
      gz: () => zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
    };
    for (const [suffix, compress] of Object.entries(variants)) {
      const compressed = compress();
      if (compressed.length < body.length) {
        fs.writeFileSync(`${file}.${suffix}`, compressed);
        summary[suffix]++;
        summary[`${suffix}Bytes`] += compressed.length;
      } else {
        // A variant left from an earlier run must not outlive the file it was made from.
        fs.rmSync(`${file}.${suffix}`, { force: true });
      }
    }
  }
  return summary;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(import.meta.dirname, "../build/client/assets");
  const s = precompressAssets(dir);
  const kb = (n) => `${(n / 1024).toFixed(0)} kB`;
  console.log(`Precompressed ${s.files} assets (${kb(s.bytes)}): ${s.br} .br (${kb(s.brBytes)}), ${s.gz} .gz (${kb(s.gzBytes)}).`);
}
