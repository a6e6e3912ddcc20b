# The compiled build's C layout of a move (see docs/speed.md): attribute reads in the typed
# modules become struct reads.
cdef class Move:
    cdef readonly str id
    cdef readonly str kind
    cdef readonly object card
    cdef readonly object target
    cdef readonly object option
