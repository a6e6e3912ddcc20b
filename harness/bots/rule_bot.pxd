# Compiled build only (docs/speed.md): Situation as an extension type. rule_bot is compiled with
# annotation_typing, so the helpers' ``sit: Situation`` arguments are this C type and their
# reads of its fields are struct reads. Keep in step with rule_bot.py's Situation.
# The view's C types under other names: rule_bot.py imports the Python names for its
# annotations, which stay plain objects; the situation's view and own player are these types,
# so the helpers' reads of ``sit.view.players`` or ``sit.me.life`` are struct reads.
from bangarena.engine.views cimport PlayerView as CPlayerView, SeatView as CSeatView
from bangarena.engine.moves cimport Move as CMove
cimport cython

cdef class Situation:
    cdef public CSeatView view
    cdef public object bot
    cdef public CPlayerView me
    cdef public str role
    cdef public object life
    cdef public object hand
    cdef public object hn
    cdef public object _alive
    cdef public object _u
    cdef public object _in_play

# The module's tables as C-typed globals: the lookups in them are the dict's and tuple's own C
# calls (not visible as module attributes in this build; nothing outside the module reads them).
cdef dict THRESHOLD, _HANDLERS
cdef tuple _PLAY_STEPS

# The helpers that loop over a decision's moves read each move's fields as struct members
@cython.locals(m=CMove)
cpdef object _first(object decision, str kind)
@cython.locals(m=CMove)
cpdef object _play(object bot, Situation sit, object d)
@cython.locals(m=CMove, best=CMove)
cpdef object _shot(object bot, Situation sit, object d, dict plays)
@cython.locals(m=CMove, best=CMove)
cpdef object _discard(object bot, Situation sit, object d)
