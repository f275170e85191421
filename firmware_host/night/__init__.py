"""Game night, the table's side and the wire: ``topics`` is the contract between a table and
the hub, ``publisher`` and ``follow`` send a table's journal to the broker, ``mqtt`` and
``broker`` speak to it. The hub that keeps the night is :mod:`firmware_host.hub`."""
