#!/usr/bin/env python3
"""Writes Assets/catalog.json from the photos in Assets/photos: size, mean colour and BlurHash of
each, plus the hand-written descriptions, tags, camera details and authors below.

Run once after changing the photos (needs Pillow and blurhash from PyPI); the sandbox only reads
the JSON it writes."""
import json
import os

import blurhash
from PIL import Image

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Assets")

USERS = [
    {"username": "demo", "name": "Dana Demo", "first_name": "Dana", "last_name": "Demo",
     "bio": "The demo account of the ImageFeed sandbox. Likes cats, coffee and rockets.",
     "location": "Loopback, 127.0.0.1", "avatar": "chelsea.jpg"},
    {"username": "stefan", "name": "Stefan van der Walt", "first_name": "Stefan", "last_name": "van der Walt",
     "bio": "Photographs the cat, the clock and whatever else stands still long enough.",
     "location": "Stellenbosch, South Africa", "avatar": "clock_motion.jpg"},
    {"username": "rachel", "name": "Rachel Michetti", "first_name": "Rachel", "last_name": "Michetti",
     "bio": "Coffee, light and wood grain.", "location": "Portland, Oregon", "avatar": "coffee.jpg"},
    {"username": "nasa", "name": "NASA", "first_name": "NASA", "last_name": None,
     "bio": "Public-domain images from space flight and astronomy.", "location": "Washington, DC",
     "avatar": "astronaut.jpg"},
    {"username": "spacex", "name": "SpaceX", "first_name": "SpaceX", "last_name": None,
     "bio": "Launch photography.", "location": "Cape Canaveral, Florida", "avatar": "rocket.jpg"},
    {"username": "lav", "name": "Lav Varshney", "first_name": "Lav", "last_name": "Varshney",
     "bio": None, "location": None, "avatar": "camera.jpg"},
    {"username": "textures", "name": "CC0 Textures", "first_name": "CC0", "last_name": "Textures",
     "bio": "Surfaces: brick, gravel, grass.", "location": None, "avatar": None},
    {"username": "labs", "name": "Open Microscopy", "first_name": None, "last_name": None,
     "bio": "Cells, tissue and the back of the eye.", "location": "Somewhere with a microscope", "avatar": None},
]

# Portfolio links of the users who have one.
PORTFOLIOS = {
    "stefan": "https://example.org/stefan",
    "rachel": "https://example.org/rachel-michetti",
    "nasa": "https://images.nasa.gov",
    "spacex": "https://example.org/spacex",
    "textures": "https://example.org/cc0-textures",
}

# Topics and collections, made from the photos by their tags (the sandbox finds the photos).
TOPICS = [
    {"slug": "nature", "title": "Nature", "description": "Animals, plants and the ground under our feet.",
     "tags": ["nature", "animal", "grass", "stone"]},
    {"slug": "space", "title": "Space", "description": "Galaxies, rockets and the people who fly them.",
     "tags": ["space", "galaxy", "rocket"]},
    {"slug": "film", "title": "Film", "description": "Black and white, grain and motion blur.",
     "tags": ["black and white", "camera", "motion blur"]},
    {"slug": "textures-patterns", "title": "Textures & Patterns", "description": "Surfaces up close.", "tags": ["texture"]},
    {"slug": "science", "title": "Science", "description": "Under the microscope and through the telescope.",
     "tags": ["science", "astronomy"]},
    {"slug": "food-drink", "title": "Food & Drink", "description": "Coffee, mostly.", "tags": ["coffee", "cafe"]},
]

COLLECTIONS = [
    {"id": "space-age", "title": "Space age", "owner": "nasa", "description": "Launches, astronauts and deep fields.",
     "tags": ["space"]},
    {"id": "under-the-microscope", "title": "Under the microscope", "owner": "labs", "description": "Tissue, cells and a retina.",
     "tags": ["science"]},
    {"id": "morning-coffee", "title": "Morning coffee", "owner": "rachel", "description": None, "tags": ["coffee", "cup"]},
    {"id": "grey-scale", "title": "Grey scale", "owner": "stefan", "description": "Things without colour.",
     "tags": ["black and white", "clock"]},
    {"id": "cat-and-clock", "title": "The cat and the clock", "owner": "stefan", "description": "What stands still long enough.",
     "tags": ["cat", "clock"]},
    {"id": "surfaces", "title": "Surfaces", "owner": "textures", "description": "Brick, grass and gravel.", "tags": ["texture"]},
    {"id": "demo-favourites", "title": "Favourites", "owner": "demo", "description": "A few of the demo account's.",
     "tags": ["cat", "coffee", "rocket"]},
]

PHOTOS = [
    ("astronaut.jpg", "nasa", "Eileen Collins, the first woman to pilot a Space Shuttle, in her flight suit.",
     "woman in white flight suit in front of a flag", ["astronaut", "space", "portrait", "nasa"],
     {"make": "Hasselblad", "model": "500 EL/M", "iso": 100}, {"city": "Houston", "country": "United States"}),
    ("chelsea.jpg", "stefan", "Chelsea the cat, looking sideways.", "tabby cat lying on a sofa",
     ["cat", "animal", "pet", "tabby"], {"make": "Canon", "model": "EOS 450D", "exposure_time": "1/60",
     "aperture": "4.0", "focal_length": "35.0", "iso": 400}, None),
    ("coffee.jpg", "rachel", "A cup of coffee at Pikolo Espresso Bar.", "white ceramic cup with coffee on a wooden table",
     ["coffee", "cup", "espresso", "cafe"], {"make": "Fujifilm", "model": "X100S", "aperture": "2.0", "iso": 800},
     {"name": "Pikolo Espresso Bar", "city": "Portland", "country": "United States"}),
    ("hubble-deep-field.jpg", "nasa", "The Hubble eXtreme Deep Field: thousands of galaxies in a speck of sky.",
     "galaxies on a black background", ["space", "galaxy", "stars", "hubble", "astronomy"], None, None),
    ("immunohistochemistry.jpg", "labs", None, "stained tissue under a microscope",
     ["science", "microscope", "tissue"], None, None),
    ("retina.jpg", "labs", "Fundus photograph of a normal left eye.", "orange retina with blood vessels",
     ["eye", "science", "retina"], {"make": "Topcon", "model": "TRC-50DX"}, None),
    ("rocket.jpg", "spacex", "Falcon 9 lifts off carrying DSCOVR from Cape Canaveral.",
     "rocket launching with smoke and fire", ["rocket", "launch", "space", "spacex"],
     {"make": "Nikon", "model": "D4", "exposure_time": "1/2000", "aperture": "8.0", "focal_length": "400.0", "iso": 200},
     {"name": "Space Launch Complex 40", "city": "Cape Canaveral", "country": "United States",
      "position": {"latitude": 28.5619, "longitude": -80.5772}}),
    ("camera.jpg", "lav", "A photographer with a camera on a tripod.", "grayscale photo of a person with a camera",
     ["camera", "photographer", "black and white"], None, None),
    ("coins.jpg", "labs", "Greek coins from Pompeii, Brooklyn Museum.", "grayscale coins on a table",
     ["coins", "museum", "history", "black and white"], None, {"city": "Brooklyn", "country": "United States"}),
    ("brick.jpg", "textures", "A brick wall.", "gray brick wall", ["brick", "wall", "texture"], None, None),
    ("grass.jpg", "textures", "Grass, up close.", "grayscale grass", ["grass", "nature", "texture"], None, None),
    ("gravel.jpg", "textures", None, None, ["gravel", "stone", "texture"], None, None),
    ("clock.jpg", "stefan", "A wall clock, blurred by a moving camera.", "blurred clock on a wall",
     ["clock", "time", "motion blur"], {"exposure_time": "1/8"}, None),
    ("cell.jpg", "labs", "A cell floating in saline, seen by its phase.", "gray blob on a striped background",
     ["cell", "science", "hologram"], None, None),
]


def main():
    photos = []
    for file, author, description, alt, tags, exif, location in PHOTOS:
        image = Image.open(os.path.join(ROOT, "photos", file)).convert("RGB")
        small = image.copy()
        small.thumbnail((64, 64))
        flat = list(small.get_flattened_data())
        rows = [[list(flat[y * small.width + x]) for x in range(small.width)] for y in range(small.height)]
        mean = [round(sum(channel) / len(channel)) for channel in zip(*flat)]
        photos.append({
            "file": file, "author": author, "width": image.width, "height": image.height,
            "color": "#%02X%02X%02X" % tuple(mean),
            "blur_hash": blurhash.encode(rows, components_x=4, components_y=3),
            "description": description, "alt_description": alt, "tags": tags,
            "exif": exif, "location": location,
        })
    users = [dict(user, **({"portfolio_url": PORTFOLIOS[user["username"]]} if user["username"] in PORTFOLIOS else {}))
             for user in USERS]
    catalog = {"demo_username": "demo", "users": users, "photos": photos, "topics": TOPICS, "collections": COLLECTIONS}
    with open(os.path.join(ROOT, "catalog.json"), "w") as out:
        json.dump(catalog, out, indent=2, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
