"""Bake the geometry of the report map: the land, and the region and label point of every province and sea.

Development time only: the adjudicator never runs this and never imports shapely. Run it from the
repository's root as `python -m tools.bake_map` (tools/README.md). For each board it knows
(bake.BOARDS: the 2003 board, the Empires board and the Mare Mediterraneum board, whose land areas are
its provinces) it reads each province's and sea's `position = [longitude, latitude]` from the board
file, and how to shape that board's map (its frame, continents, seeds, reaches and card sizes) from the
`<board>.bake.toml` beside it, and writes the map file beside both (`<board>.map.json`), which is what
the reports read.

Source: Natural Earth 1:50m land polygons (public domain, naturalearthdata.com), as the TopoJSON file
land-50m.json of the npm package world-atlas 2.0.2 by Mike Bostock (the package is under the ISC licence;
the data in it is public domain), fetched with `npm pack` or read from a local copy, and checked against
its SHA-256 (topology.py).

The modules, in the order the bake uses them: topology (the source), parameters (the `.bake.toml`
files), boards (each ruleset's board as places), geometry (projection and regions), labels (placing
label cards without overlap), cards (each board's cards and extra keys), writer (the file's text), bake
(one board, end to end, and the adjacency check) and __main__ (the command line).
"""
