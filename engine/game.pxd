# The compiled build's C layout of a game (see docs/speed.md).
cimport cython
from .state cimport GameState
from .moves cimport Decision, Move
# C calls: a view's builders from Game.view (one view per bot decision), the game advanced
# from apply and apply_fast
from .views cimport build_view, pending_info
from .flow cimport advance

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

    # The rule bot's events (SeatView.events_of): the log scanned and indexed with C integers
    @cython.locals(i=Py_ssize_t, j=Py_ssize_t, log=list, at=list, pts=list, fls=list, out=list,
                   found=list, shown=bint)
    cpdef list _view_events_of(self, object seat, Py_ssize_t start, Py_ssize_t end, frozenset kinds)

    # A bot's move found among the legal ones and applied: the moves' and the state's fields
    # read as struct members
    @cython.locals(g=GameState, m=Move)
    cpdef list apply(self, object seat, object move_id)
    @cython.locals(g=GameState)
    cpdef apply_fast(self, Move move)

@cython.locals(d=Decision)
cpdef Decision _decision_of(list pend, tuple moves)
