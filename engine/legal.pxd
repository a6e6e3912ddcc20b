# Compiled build only (docs/speed.md): the engine's classes as C types, for the annotations
# of this module (compiled with annotation_typing), and the play step's card categories as C
# integers: its loop over the kinds in hand compares and indexes with them.
cimport cython
from .state cimport GameState, Player
from .moves cimport Move

cdef Py_ssize_t _PLAIN, _SHOT, _RICOCHET, _CANTEEN, _SNATCH, _KNOCK_OFF, _DUEL, _JAIL, _BLUE, _WEAPON
cdef tuple _CAT_AT, _ORDER_OF, _BIT_OF, _UNTARGETED_AT, _CARDS_AT, _AS_SHOT_AT, _KIND_AT, _DISCARD_OF

@cython.locals(p=Player, q=Player, o=Py_ssize_t, cat=Py_ssize_t, seat=Py_ssize_t,
               s=Py_ssize_t, rng=Py_ssize_t, c=Py_ssize_t)
cpdef list _play(GameState g, list pending)

# the kinds' table orders are below 64 (44 with the expansion): a bit set in a C integer
@cython.locals(hand=list, c=Py_ssize_t, seen=cython.ulonglong, bit=cython.ulonglong)
cpdef list _discard_hand(GameState g, list pending)
