# Compiled build only (docs/speed.md): Situation as an extension type. rule_bot is compiled with
# annotation_typing, so the helpers' ``sit: Situation`` arguments are this C type and their
# reads of its fields are struct reads. Keep in step with rule_bot.py's Situation.
cdef class Situation:
    cdef public object view
    cdef public object bot
    cdef public object me
    cdef public str role
    cdef public object life
    cdef public object hand
    cdef public object hn
    cdef public object _alive
    cdef public object _u
    cdef public object _in_play
