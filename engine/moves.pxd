# Compiled build only (docs/speed.md): Decision as an extension type (one per decision; a
# dataclass's Python __init__ cost ~2,000 instructions). rules_machine names the type of each
# of its fields for the published models. Keep in step with moves.py's fields.
cdef class Decision:
    cdef public object seat
    cdef public object kind
    cdef public object moves
    cdef public object source
    cdef public object needed
    cdef public object card
