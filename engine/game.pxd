# The compiled build's C layout of a game (see docs/speed.md).
from .state cimport GameState

cdef class Game:
    cdef public GameState state
    cdef public object config
    cdef public tuple legal_moves
    cdef public bint over
    cdef public object _decision
    cdef public object _log
    cdef public list _shared
    cdef public dict _private
    cdef public dict _reuse
    cdef public dict _kinds
