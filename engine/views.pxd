# Compiled build only (docs/speed.md): build_view reads every player's fields at each view; its
# game and players as the C types of state.pxd make those reads struct reads. The rest of the
# module keeps Python's rules for its arguments (annotation_typing stays off here).
cimport cython
from .state cimport GameState, Player

# The view's classes as extension types: a view makes ~2.5 PlayerViews, a DecisionInfo and a
# SeatView, and a dataclass's Python __init__ (or slot-by-slot attribute writes) cost as much as
# the rest of the view. Keep in step with views.py's fields. The lazy views are a Python subclass
# of SeatView whose ``events`` property comes before this type's field.
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

cdef class DecisionInfo:
    cdef public object seat
    cdef public object kind
    cdef public object source
    cdef public object needed
    cdef public object card

cdef class SeatView:
    cdef public object seat
    cdef public object mode
    cdef public object seats
    cdef public object role
    cdef public object hand
    cdef public object named_deputies
    cdef public object players
    cdef public object turn
    cdef public object decision
    cdef public object round
    cdef public object high_noon
    cdef public object deck_size
    cdef public object discard_size
    cdef public object discard_top
    cdef public object over
    cdef public object winning_team
    cdef public object winners
    cdef public object events
    cdef public object since
    cdef public object cursor
    cdef public object supply
    cdef public object expansions

# v: the view being built, its fields written as struct members; s: a C index into the seats'
# lists (the distances, the kept PlayerViews); dist, ids: their list and tuple read in C
@cython.locals(g=GameState, me=Player, p=Player, v=SeatView, pv=PlayerView, s=Py_ssize_t,
               dist=list, ids=tuple, c=Py_ssize_t)
cpdef build_view(g, seat, since=*, events=*, list reuse=*, info=*, lazy_events=*)

@cython.locals(info=DecisionInfo)
cpdef DecisionInfo pending_info(list pend)

cpdef list _lazy_events_of(SeatView v, object ev, object src, object kinds, object since)
