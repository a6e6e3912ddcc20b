# Compiled build only (docs/speed.md): Player and GameState as extension types whose fields
# are struct members, read and written as such by the typed modules. Keep in step with
# state.py's fields: CI's compiled job plays 1,000 games on both builds and compares them.
cimport cython

cdef class Player:
    cdef public object seat
    cdef public str role
    cdef public str character
    cdef public object life
    cdef public object max_life
    cdef public list hand
    cdef public list in_play
    cdef public object weapon
    cdef public list stars
    cdef public object alive
    cdef public object tokens
    cdef public object v

cdef class GameState:
    cdef public object seats
    cdef public str mode
    cdef public object max_rounds
    cdef public object seed
    cdef public list players
    cdef public list deck
    cdef public list discard
    cdef public list rng
    cdef public object sheriff
    cdef public list named_deputies
    cdef public list coins
    cdef public list limbo
    cdef public list known
    cdef public object turn
    cdef public object round
    cdef public object high_noon
    cdef public object shots
    cdef public object jailed
    cdef public list stack
    cdef public list pending
    cdef public list log
    cdef public list history
    cdef public object forced
    cdef public object over
    cdef public object winning_team
    cdef public list winners
    cdef public object end_reason
    cdef public list expansions
    cdef public object supply
    cdef public list loads
    cdef public list used
    cdef public object bell
    cdef public list picks
    cdef public dict memo

# The deal's constructors set their object's fields as struct members.
@cython.locals(q=Player)
cpdef new_player(seat, role, character, life, max_life)

@cython.locals(c=GameState)
cpdef new_state(seats, mode, max_rounds, seed, players, deck, rng, sheriff, known)
