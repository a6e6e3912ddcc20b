# Compiled build only (docs/speed.md): the engine's classes as C types, for the annotations
# of this module (compiled with annotation_typing).
from .state cimport GameState, Player
from .moves cimport Move
