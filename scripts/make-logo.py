#!/usr/bin/env python3
"""Draws ImageFeed's logo (Assets/logo.png): a photo frame with a sun over two mountains.

Made for the project, from plain shapes; standard library only (zlib, struct).
"""
import os
import struct
import zlib

WIDTH, HEIGHT = 96, 64
FRAME = (36, 41, 56)
SKY_TOP, SKY_BOTTOM = (60, 110, 190), (150, 195, 235)
SUN = (250, 190, 70)
FAR, NEAR = (70, 120, 120), (40, 80, 70)
SNOW = (240, 244, 248)


def inside_rounded(x, y, left, top, right, bottom, radius):
    cx = min(max(x, left + radius), right - radius)
    cy = min(max(y, top + radius), bottom - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def mountain(x, peak_x, peak_y, slope, base):
    """Height of a mountain's surface at x (smaller y is higher)."""
    return max(peak_y + abs(x - peak_x) * slope, peak_y) if abs(x - peak_x) * slope + peak_y < base else base


def pixel(x, y):
    if not inside_rounded(x, y, 0, 0, WIDTH - 1, HEIGHT - 1, 10):
        return (0, 0, 0, 0)
    if not inside_rounded(x, y, 6, 6, WIDTH - 7, HEIGHT - 7, 6):
        return FRAME + (255,)
    t = (y - 6) / (HEIGHT - 13)
    color = tuple(int(a + (b - a) * t) for a, b in zip(SKY_TOP, SKY_BOTTOM))
    if (x - 66) ** 2 + (y - 22) ** 2 <= 8 ** 2:
        color = SUN
    far = mountain(x, 60, 24, 0.9, 58)
    near = mountain(x, 32, 18, 1.1, 58)
    if y >= far:
        color = FAR
    if y >= near:
        color = SNOW if y < near + 5 and abs(x - 32) < 6 else NEAR
    return color + (255,)


def png(width, height, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(v for p in row for v in p) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    rows = [[pixel(x, y) for x in range(WIDTH)] for y in range(HEIGHT)]
    path = os.path.join(os.path.dirname(__file__), "..", "Assets", "logo.png")
    with open(path, "wb") as out:
        out.write(png(WIDTH, HEIGHT, rows))
    print(f"wrote {os.path.normpath(path)}")
