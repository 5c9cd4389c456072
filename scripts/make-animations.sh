#!/usr/bin/env bash
# Writes the demo's animated items into Assets/animations/ from the photos in Assets/photos/ (their licences allow
# it; see Assets/README.md): a GIF, an animated WebP and an MP4, as Imgur serves animations. Needs
# ImageMagick and ffmpeg (Debian packages); nothing else in the project does. Run it again after changing a photo.
# The GIF is 320x180 in 64 colours (a GIF of photos is large: 1.6 MB at 480x270 in 256); the WebP and the MP4 are
# 480x270.
set -euo pipefail
cd "$(dirname "$0")/../Assets"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# rocket.gif: 20 frames, 80 ms each, a slow zoom into the launch, looping for ever.
for i in $(seq 0 19); do
    width=$((640 - i * 12)); height=$((width * 9 / 16))
    x=$(((640 - width) / 2)); y=$(((427 - height) / 2 - i))
    ((y < 0)) && y=0
    convert photos/rocket.jpg -crop "${width}x${height}+${x}+${y}" +repage -resize '320x180!' "$work/rocket-$(printf %02d "$i").png"
done
convert -delay 8 -loop 0 "$work"/rocket-*.png +dither -colors 64 -layers Optimize animations/rocket.gif

# coffee.webp: 20 frames, 100 ms each, a pan across the cup, looping for ever.
for i in $(seq 0 19); do
    x=$((i * 6))
    convert photos/coffee.jpg -crop "480x270+${x}+60" +repage "$work/coffee-$(printf %02d "$i").png"
done
convert -delay 10 -loop 0 "$work"/coffee-*.png -quality 70 -define webp:lossless=false animations/coffee.webp

# hubble.mp4: 2 seconds at 20 frames a second, a zoom into the deep field (H.264, as Imgur's gifv).
ffmpeg -loglevel error -y -loop 1 -i photos/hubble-deep-field.jpg \
    -vf "scale=1000:-2,zoompan=z='1+0.01*on':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=40:s=480x270:fps=20" \
    -frames:v 40 -c:v libx264 -pix_fmt yuv420p -preset veryslow -crf 30 -movflags +faststart -an animations/hubble.mp4
ls -l animations
