"""The night's hub: it keeps the night from the broker (``listener``, ``store``) and serves it
to phones and a TV (``server``, ``site``, ``page``, ``tv``), with the league across nights
(``league``). The table's side never imports it; it reads the wire through ``night.topics``."""
