"""Game night across tables: a publisher beside each table's journal, a hub that keeps the
night from the broker and serves it to phones. ``topics`` is the contract between them."""
