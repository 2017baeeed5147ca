// Issue 15: what the committed fonts and background clip may weigh (decision 0029). The files are
// the ones the pages load: every woff2 in app/fonts (app.css's @font-face takes its fonts from there
// alone), and the clip's sources as background-video.tsx offers them, read from public/.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_VIDEO, videoSources } from "#app/components/background-video";

const root = path.resolve(import.meta.dirname, "../..");
const kB = 1000;
const FONTS_LIMIT = 30 * kB;
const CLIP_LIMIT = 400 * kB;

const size = (file: string) => fs.statSync(path.join(root, file)).size;

describe("issue 15's sizes", () => {
  it(`fonts: at most ${FONTS_LIMIT / kB} kB in total`, () => {
    const fonts = fs
      .readdirSync(path.join(root, "app/fonts"))
      .filter((name) => name.endsWith(".woff2"))
      .map((name) => `app/fonts/${name}`);
    expect(fonts.length, "the subset fonts are committed in app/fonts").toBeGreaterThan(0);
    const css = fs.readFileSync(path.join(root, "app/styles/app.css"), "utf8");
    const used = [...css.matchAll(/url\("?([^")]+\.woff2)"?\)/g)].map((m) => path.posix.join("app/styles", m[1]!));
    expect(used.length, "app.css declares its fonts").toBeGreaterThan(0);
    for (const font of used) expect(fonts, `${font}, used by app.css, is one of the fonts counted`).toContain(font);

    const total = fonts.reduce((sum, font) => sum + size(font), 0);
    expect(
      total,
      `issue 15: the fonts together must stay at or under 30 kB (${FONTS_LIMIT} bytes): ${fonts.join(", ")}`,
    ).toBeLessThanOrEqual(FONTS_LIMIT);
  });

  it(`the background clip: at most ${CLIP_LIMIT / kB} kB each encode`, () => {
    const clip = videoSources(DEFAULT_VIDEO).map((source) => path.posix.join("public", source.src));
    expect(clip).toEqual(["public/media/background.webm", "public/media/background.mp4"]);
    for (const file of clip) {
      expect(size(file), `issue 15: ${file} must stay at or under 400 kB (${CLIP_LIMIT} bytes)`).toBeLessThanOrEqual(CLIP_LIMIT);
    }
  });
});
