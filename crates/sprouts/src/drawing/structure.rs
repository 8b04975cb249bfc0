//! A drawing read back as the card notation, and a whole position laid out from its structure alone.
