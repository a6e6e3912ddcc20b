# Compiled build only (docs/speed.md): build_view reads every player's fields at each view; its
# game and players as the C types of state.pxd make those reads struct reads. The rest of the
# module keeps Python's rules for its arguments (annotation_typing stays off here).
cimport cython
from .state cimport GameState, Player

@cython.locals(g=GameState, me=Player, p=Player)
cpdef build_view(g, seat, since=*, events=*, reuse=*, info=*, lazy_events=*)

# PlayerView as an extension type: build_view makes ~2.5 per view, and a class with a Python
# __init__ costs as much to call as the rest of the view. Keep in step with views.py's fields.
cdef class PlayerView:
    cdef public object seat
    cdef public object character
    cdef public object alive
    cdef public object life
    cdef public object max_life
    cdef public object hand_size
    cdef public object distance
    cdef public object in_play
    cdef public object weapon
    cdef public object stars
    cdef public object role
    cdef public object revealed
    cdef public object tokens
    cdef public object loads
