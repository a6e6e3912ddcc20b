# Compiled build only (docs/speed.md): the engine's classes as C types, for the annotations
# of this module (compiled with annotation_typing).
cimport cython
from .state cimport GameState, Player

# Card numbers as C integers: the tables they index are then read without converting a
# Python int at each read.
@cython.locals(c=cython.Py_ssize_t)
cpdef first_of_kind(Player p, str kind)

@cython.locals(c=cython.Py_ssize_t)
cpdef last_of_kind(Player p, str kind)
