# Compiled build only (docs/speed.md): SplitMix64 in C unsigned 64-bit arithmetic. In Python
# every step makes new big ints (a multiply of two 64-bit numbers is a 128-bit product, masked);
# as C ``unsigned long long`` the products wrap modulo 2**64 by themselves, which is what the
# masks compute, so both builds draw the same numbers.
cimport cython

@cython.locals(h=cython.ulonglong, z=cython.ulonglong, ch=cython.ulonglong,
               golden=cython.ulonglong, m1=cython.ulonglong, m2=cython.ulonglong,
               mask=cython.ulonglong)
cpdef stream_seed(seed, purpose)

@cython.locals(state=cython.ulonglong, z=cython.ulonglong, limit=cython.ulonglong,
               golden=cython.ulonglong, m1=cython.ulonglong, m2=cython.ulonglong,
               mask=cython.ulonglong)
cpdef below(states, slot, n)

# items: a list (every caller's), indexed as one: no generic item access per swap
@cython.locals(state=cython.ulonglong, z=cython.ulonglong, limit=cython.ulonglong,
               golden=cython.ulonglong, m1=cython.ulonglong, m2=cython.ulonglong,
               mask=cython.ulonglong, n=cython.Py_ssize_t, i=cython.Py_ssize_t,
               j=cython.Py_ssize_t, limits=list)
cpdef _shuffle_one_by_one(states, slot, list items)

cpdef shuffle(states, slot, list items)
