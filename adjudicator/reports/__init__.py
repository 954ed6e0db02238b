"""Everything a reader sees: the Jinja environment (render), a phase's public and private
reports (phase), the order form, the maps and their pictures, the campaign site and the rules
pages."""
