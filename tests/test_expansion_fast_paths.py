"""The Armed & Dangerous play step's fast paths (issue #15, Performance): its inlined checks
agree with the readable helpers they replace (``has_kind``, ``can_shoot_card``, ``can_heal``,
``dangerous_cards``) at every play decision of random expansion games, and the card-table facts
they rest on hold."""

from __future__ import annotations

import random

from bangarena.engine import GameConfig, new_game
from bangarena.engine.armed_legal import (
    _ACTIVE_CARDS,
    _NEED,
    can_shoot_card,
    has_kind,
    reach,
)
from bangarena.engine.cards import AD_KINDS, CARD_KIND_OF, DANGEROUS, IS_DANGEROUS, KIND_BY_ID
from bangarena.engine.loads import card_of, dangerous_cards, has_dangerous
from bangarena.engine.moves import play_move, use_move
from bangarena.engine.table import can_heal, weapon_range

AD = ("armed_dangerous",)
_KIND_ORDER = {k: i for i, k in enumerate(KIND_BY_ID)}


def test_every_dangerous_kind_is_one_card() -> None:
    # The fast paths address a Dangerous card (Bandolier, Big Fifty, a holder) by its number.
    for k in AD_KINDS:
        if k.dangerous:
            assert k.copies == 1 and CARD_KIND_OF.count(k.id) == 1, k.id
    # Only blue Dangerous cards have an effect used in the play step, each listed with its cost.
    for c in _ACTIVE_CARDS:
        kind = KIND_BY_ID[CARD_KIND_OF[c]]
        assert kind.dangerous and kind.color == "blue" and _NEED[c] == kind.cost


def _play_positions(games: int):
    rnd = random.Random(15)
    for seed in range(games):
        game = new_game(GameConfig(seats=4 + seed % 5, expansions=AD), seed)
        while not game.over:
            g = game.state
            if g.pending[0] == "play":
                yield g, set(game.legal_moves)
            moves = game.legal_moves
            game.apply_fast(moves[rnd.randrange(len(moves))])


def test_play_step_agrees_with_the_helpers() -> None:
    checked = 0
    for g, moves in _play_positions(60):
        p = g.players[g.pending[1]]
        kinds = {CARD_KIND_OF[c] for c in p.hand}
        for q in g.players:
            cards = q.in_play + ([q.weapon] if q.weapon >= 0 else [])
            assert has_dangerous(q) == any(IS_DANGEROUS[c] for c in cards)
            assert dangerous_cards(q) == sorted(
                (c for c in cards if IS_DANGEROUS[c]), key=lambda c: _KIND_ORDER[CARD_KIND_OF[c]]
            )
        for kind in kinds:
            color = KIND_BY_ID[kind].color
            affordable = kind not in DANGEROUS or g.supply >= 3
            if color == "blue" and kind not in ("jail", "bomb"):
                assert (play_move(kind) in moves) == (affordable and not has_kind(p, kind)), kind
            elif kind in ("canteen", "little_nip"):
                heals = can_heal(g, p) and not (
                    g.mode == "old_classic" and sum(q.alive for q in g.players) < 3
                )
                assert (play_move(kind) in moves) == heals, kind
        if "shot" in kinds:
            dist, rng = reach(g, p.seat), weapon_range(p)
            for q in g.players:
                if q.alive and q.seat != p.seat and dist[q.seat] <= rng:
                    assert (play_move("shot", q.seat) in moves) == can_shoot_card(g, p)
        for kind, need in (("ace_up_the_sleeve", 2), ("bell_tower", 1)):
            c = card_of(p, kind)
            usable = c >= 0 and g.loads[c] >= need and not (kind == "bell_tower" and g.bell)
            assert (use_move(kind) in moves) == usable, kind
        checked += 1
    assert checked > 1000
