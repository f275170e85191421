"""Serial devices (larger boards, dice rollers): the TC1 line framing, its typed messages and
the bridge that polls a port and turns lines into events (protocol: ``protocol.md``)."""
