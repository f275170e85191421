"""The table's voice: what is said for the ear (:mod:`.phrases`), what the table said next
(:mod:`.spoken`, hung on the referee from outside) and the speaker that says it off the
referee's loop (:mod:`.speaker`)."""
