# Compiled build only (docs/speed.md): Move (frozen: readonly fields) and Decision as extension
# types: a Decision per decision, whose dataclass __init__ in Python cost ~2,000 instructions,
# and the moves' fields read as struct members where a typed module cimports Move.
# rules_machine names the type of each of their fields for the published models. Keep in step
# with moves.py's fields.
cdef class Move:
    cdef readonly str id
    cdef readonly str kind
    cdef readonly object card
    cdef readonly object target
    cdef readonly object option

cdef class Decision:
    cdef public object seat
    cdef public object kind
    cdef public object moves
    cdef public object source
    cdef public object needed
    cdef public object card
