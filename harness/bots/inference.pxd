# Compiled build only (docs/speed.md): Beliefs as an extension type, so that its methods read
# and write their fields as struct members; the odds' arithmetic in C doubles (the same IEEE
# operations, in the same order, as the pure module's floats). Keep in step with inference.py.
cimport cython

cdef double SLOPE
# The module's tables as dicts: their .get and [] are then the dict's own C calls, not
# method lookups on an unknown object.
cdef dict AGGRESSION, ATTACK_SIGNAL, _CERTAIN, _HANDLERS

@cython.final
cdef class Beliefs:
    cdef public object me
    cdef public object n
    cdef public object sheriff
    cdef public list roles_at_table
    cdef public dict known
    cdef public list named
    cdef public list alive
    cdef public dict acts
    cdef public object version
    cdef public object _pick_actor
    cdef public object _cache
    cdef public object _odds
    cdef public object _pool
    cdef public object _frame

    # What the methods call on themselves, as C calls (no bound method per call); final: no
    # subclass overrides them.
    cpdef _changed(self)
    cpdef _learnt(self)
    cpdef _act(self, a, b, w)
    cpdef _removed(self, actor, victim, card)
    # The acts' seats as C indexes into the per-seat lists, their weights as C doubles (the
    # same IEEE operations in the same order as the pure module's floats)
    @cython.locals(a=Py_ssize_t, b=Py_ssize_t, w=cython.double, f=cython.double,
                   first=list, base=list, value=list, out=list, sh=Py_ssize_t)
    cpdef list scores(self)
    cpdef pool(self)
    cpdef _known_frame(self)
    cpdef list _unknown_roles(self)

@cython.locals(x=cython.double, up=cython.double, total=cython.double, w=cython.double,
               wo=cython.double, wa=cython.double, wd=cython.double, wr=cython.double,
               ws=cython.double, c=cython.double)
cpdef tuple _odds(tuple items, double score)
