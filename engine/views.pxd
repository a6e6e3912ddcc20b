# Compiled build only (docs/speed.md): build_view reads every player's fields at each view; its
# game and players as the C types of state.pxd make those reads struct reads. The rest of the
# module keeps Python's rules for its arguments (annotation_typing stays off here).
cimport cython
from .state cimport GameState, Player

@cython.locals(g=GameState, me=Player, p=Player)
cpdef build_view(g, seat, since=*, events=*, reuse=*, info=*, lazy_events=*)
