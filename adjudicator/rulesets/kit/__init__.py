"""What two or three rulesets share: place graphs, name lookup, paying with cards, picking the
best card to take. Pure like the rulesets themselves: no files, no clocks."""
