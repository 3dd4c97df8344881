"""Studies: run many matches between agents and summarise them."""
