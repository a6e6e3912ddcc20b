# Compiled build only (docs/speed.md): the engine's classes as C types, for the annotations
# of this module (compiled with annotation_typing).
from .state cimport GameState, Player
from .moves cimport Move

# Called by Game.apply and apply_fast once a decision (cimported there: a C call)
cpdef list advance(GameState g)
