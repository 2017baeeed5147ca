#!/usr/bin/env bash
# Makes the store's default landing media, all original and generated from maths (no samples,
# no stock footage), so the project owns every byte:
#
#   public/media/background.mp4         10 s seamless loop, 1280x720, H.264 baseline, no audio
#   public/media/background-poster.webp the loop's first frame, painted before the video loads
#   public/media/music.mp3              42.7 s ambient half-time beat (16 bars at 90 BPM), loops
#
# Needs ffmpeg (with libx264, libmp3lame, libwebp), sox and bc: `apt-get install ffmpeg sox bc`.
# Only this script needs them; the store serves the committed files and never runs these tools.
# Run from anywhere: `bash scripts/make-media.sh`. Takes about half a minute.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/public/media"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
for tool in ffmpeg sox bc; do
  command -v "$tool" >/dev/null || { echo "make-media: $tool is not installed" >&2; exit 1; }
done

# ---------------------------------------------------------------------------------------------
# Video: light sliding over dark satin. Every term is periodic in t with the loop's period (or a
# whole fraction of it), so the last frame flows into the first. Drawn at 480x270 with geq (a
# per-pixel expression is slow), then scaled up and softened: the blur hides the upscale and
# the soft gradients compress to a fraction of what full-resolution detail would.
# ---------------------------------------------------------------------------------------------
LOOP=10
W="(2*PI*T/$LOOP)"
# The phase of the folds: stripes bent by three slow waves.
FOLDS="(X/30 + 3*sin(Y/47+$W) + 2*sin((X-Y)/71-$W) + 1.2*sin(Y/23+X/61+2*$W))"
# A broad moving light that makes some folds catch more sheen than others.
LIGHT="(0.35+0.65*pow(0.5+0.5*sin(Y/90+X/140-$W),2))"
# Narrow highlights (pow 5) read as sheen on fabric; a faint second term keeps the shadows alive.
LUMA="clip(8 + 150*pow(0.5+0.5*sin($FOLDS),5)*$LIGHT + 14*(0.5+0.5*sin($FOLDS+1.2)),0,255)"

ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "nullsrc=s=480x270:r=24:d=$LOOP,format=gray" \
  -vf "geq=lum='$LUMA'" -c:v rawvideo "$WORK/raw.nut"

# Light temporal grain dithers the dark gradients, which H.264 would otherwise band.
ffmpeg -hide_banner -loglevel error -y -i "$WORK/raw.nut" \
  -vf "scale=1280:720:flags=bicubic,gblur=sigma=2.5,vignette=PI/4,noise=alls=4:allf=t,format=yuv420p" \
  -c:v libx264 -profile:v baseline -level 3.1 -preset veryslow -crf 30 -g 48 \
  -an -map_metadata -1 -fflags +bitexact -movflags +faststart "$OUT/background.mp4"

ffmpeg -hide_banner -loglevel error -y -i "$OUT/background.mp4" -frames:v 1 \
  -c:v libwebp -quality 70 -map_metadata -1 "$OUT/background-poster.webp"

# ---------------------------------------------------------------------------------------------
# Music: sox synth only. A half-time drum bar (kick, snare, hats) repeated, under a dark pad
# (Am - Fmaj7 - Dm9 - E7sus, two bars each, sawtooths low-passed) and a sine sub bass.
# ---------------------------------------------------------------------------------------------
SR=44100
BAR=2.6666667  # one 4/4 bar at 90 BPM
S16=0.16666667 # one sixteenth note
synth() { sox -n -r $SR -c 1 "$@"; }

synth "$WORK/kick.wav" synth 0.45 sine 140/38 fade q 0.002 0.45 0.4 gain -1
synth "$WORK/snare-noise.wav" synth 0.22 noise band -n 2200 1600 fade q 0.001 0.22 0.2
synth "$WORK/snare-tone.wav" synth 0.14 sine 200/150 fade q 0.001 0.14 0.12
sox -m "$WORK/snare-noise.wav" "$WORK/snare-tone.wav" "$WORK/snare.wav" gain -3
synth "$WORK/hat.wav" synth 0.05 noise highpass 7500 fade q 0.001 0.05 0.045 gain -18
synth "$WORK/silence.wav" trim 0 $BAR

# One bar: each hit moved to its sixteenth and laid over a bar of silence, then all mixed.
hits=()
place() { # sample step gain
  local out="$WORK/hit${#hits[@]}.wav"
  sox "$WORK/$1.wav" "$out.moved.wav" gain "$3" pad "$(echo "$2 * $S16" | bc -l)"
  sox -m -v 1 "$out.moved.wav" -v 1 "$WORK/silence.wav" "$out"
  hits+=("$out")
}
place kick 0 0; place kick 7 -4; place kick 10 -1
place snare 4 -2; place snare 12 -2
for step in 0 2 4 6 8 10 12 14; do place hat $step 0; done
for step in 3 11 15; do place hat $step -8; done
sox -m -v 0.5 "${hits[@]}" "$WORK/bar.wav"
sox "$WORK/bar.wav" "$WORK/drums.wav" repeat 31

# Chords as semitones from A4; each chord rings a little past its two bars so they melt together.
chords=("-24 -17 -12 -9 -5" "-28 -21 -12 -9 -5" "-19 -12 -9 -5 -4" "-29 -22 -17 -10 -7")
roots=(-36 -40 -31 -41)
pads=(); basses=()
for pass in 0 1 2 3; do
  for c in 0 1 2 3; do
    n=$((pass * 4 + c))
    at=$(echo "$n * 2 * $BAR" | bc -l)
    voices=(); for t in ${chords[$c]}; do voices+=(sawtooth "%$t"); done
    sox -n -r $SR -c 5 "$WORK/chord.wav" synth 5.9 "${voices[@]}"
    sox "$WORK/chord.wav" -c 1 "$WORK/pad$n.wav" remix - lowpass 900 lowpass 1400 fade t 0.35 5.9 0.6 pad "$at"
    synth "$WORK/bass$n.wav" synth 5.5 sine "%${roots[$c]}" fade t 0.05 5.5 0.3 pad "$at"
    pads+=("$WORK/pad$n.wav"); basses+=("$WORK/bass$n.wav")
  done
done
sox -m "${pads[@]}" "$WORK/pads.wav" tremolo 0.375 35 gain -n -14
sox -m "${basses[@]}" "$WORK/bass.wav" tremolo 1.5 55 gain -n -12
sox -m -v 0.9 "$WORK/drums.wav" -v 0.8 "$WORK/pads.wav" -v 0.9 "$WORK/bass.wav" "$WORK/mix.wav" \
  trim 0 "$(echo "32 * $BAR" | bc -l)"

# The reverb runs over two passes of the 16-bar loop and only the second is kept: its start
# already carries the reverb tail of the loop's end, so the file loops without a seam.
LOOP_LEN=$(echo "16 * $BAR" | bc -l)
sox "$WORK/mix.wav" -c 2 "$WORK/music.wav" remix 1 1 reverb 35 50 80 100 20 lowpass 10000 \
  gain -6 compand 0.02,0.25 -60,-60,-30,-18,0,-8 -4 norm -1 trim "$LOOP_LEN" "$LOOP_LEN"

ffmpeg -hide_banner -loglevel error -y -i "$WORK/music.wav" \
  -c:a libmp3lame -b:a 96k -map_metadata -1 -fflags +bitexact "$OUT/music.mp3"

ls -l "$OUT"
