"""A logged game as the tables a camera sees: ponds, calls, kans, wins, draws, the board's clock."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from table_app.demo_data import DEMO_LOG
from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Relation
from table_app.domain.tile import UNKNOWN
from table_app.logs import read_log
from table_app.rules.check import profile_for_log
from table_app.rules.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    DrawKind,
    EndKyoku,
    Hora,
    Kakan,
    Pon,
    Reach,
    Ryukyoku,
    StartKyoku,
)
from table_app.rules.profiles import TENHOU
from tests.shared_data import shared_path
from vision.render.game_scene import EMPTY_TABLE, called_meld, closed_kan, game_scenes


def _scenes(game):
    return game_scenes(game.events, profile_for_log(TENHOU, game.rules))


def _after(scenes, index):
    """The scene showing event ``index``."""
    return next(s for s in scenes if s.after_event == index and not s.cleared)


def _before(scenes, index):
    """The last scene before event ``index``."""
    return [s for s in scenes if s.after_event < index][-1]


@pytest.fixture(scope="module")
def logs_dir():
    return shared_path("data", "logs")


@pytest.fixture(scope="module")
def demo():
    game = read_log(DEMO_LOG)[0]
    return game, _scenes(game)


def test_the_demo_game_starts_and_ends_on_a_cleared_table_with_a_confirm_per_hand(demo):
    game, scenes = demo
    assert scenes[0].cleared
    assert scenes[0].layout == EMPTY_TABLE
    assert scenes[-1].cleared
    assert scenes[-1].confirm
    hands = sum(isinstance(e, StartKyoku) for e in game.events)
    assert sum(s.cleared for s in scenes) == hands + 1
    assert sum(s.confirm for s in scenes) == sum(isinstance(e, EndKyoku) for e in game.events)
    # The board's clock never goes back, and each hand is placed by its own number.
    assert all(a.board_at <= b.board_at for a, b in itertools.pairwise(scenes))
    assert [s.hand for s in scenes if s.cleared] == list(range(hands + 1))


def test_each_discard_lands_at_the_end_of_its_pond_and_a_call_takes_it_away(demo):
    game, scenes = demo
    for index, event in enumerate(game.events):
        if isinstance(event, (Chi, Pon, Daiminkan)):
            before = _before(scenes, index)
            after = _after(scenes, index)
            target = int(event.target)
            assert after.layout.seats[target].pond.tiles == before.layout.seats[target].pond.tiles[:-1]
            meld = after.layout.seats[event.actor].melds[-1]
            assert meld.tiles[meld.turned_at] == event.pai
            relation = event.actor.relation_to(event.target)
            assert meld.turned_at == {Relation.LEFT: 0, Relation.ACROSS: 1}.get(relation, len(meld.tiles) - 1)


def test_a_win_lays_the_hand_open_with_the_winning_tile_apart_and_ura_after_riichi(demo):
    game, scenes = demo
    wins = [(i, e) for i, e in enumerate(game.events) if isinstance(e, Hora)]
    assert wins
    for index, win in wins:
        seat = _after(scenes, index).layout.seats[win.actor]
        assert seat.winning == win.pai
        assert len(seat.open_hand) + 1 + 3 * len(seat.melds) == 14
        assert _after(scenes, index).layout.ura_indicators == win.ura_markers
    assert any(win.ura_markers for _, win in wins)


def test_a_riichi_tile_lies_sideways_in_the_pond(demo):
    game, scenes = demo
    index = next(i for i, e in enumerate(game.events) if isinstance(e, Reach))
    declarer = game.events[index].actor
    pond = _after(scenes, index + 1).layout.seats[declarer].pond
    assert pond.riichi_at == len(pond.tiles) - 1
    assert pond.tiles[-1] == game.events[index + 1].pai


def test_the_live_wall_goes_down_as_tiles_are_drawn(demo):
    _, scenes = demo
    hand = [s for s in scenes if s.hand == 1 and not s.cleared]
    stacks = [sum(seat.wall_stacks for seat in s.layout.seats) for s in hand]
    assert stacks[0] == 35  # 70 tiles after the deal
    assert stacks[-1] < stacks[0]
    assert all(a >= b for a, b in itertools.pairwise(stacks))


def test_a_called_meld_turns_the_tile_towards_whom_it_came_from():
    pai, consumed = parse_tiles("3m"), parse_tiles("45m")
    assert called_meld(pai[0], consumed, Relation.LEFT).turned_at == 0
    assert called_meld(pai[0], consumed, Relation.ACROSS).turned_at == 1
    assert called_meld(pai[0], consumed, Relation.RIGHT).turned_at == 2
    kan = called_meld(parse_tiles("7z")[0], parse_tiles("777z"), Relation.ACROSS)
    assert (len(kan.tiles), kan.turned_at) == (4, 1)
    assert called_meld(parse_tiles("7z")[0], parse_tiles("777z"), Relation.RIGHT).turned_at == 3
    with pytest.raises(ValueError, match="another seat"):
        called_meld(pai[0], consumed, Relation.SELF)


def test_a_closed_kan_shows_its_ends_face_down_and_a_red_five_in_the_middle():
    kan = closed_kan(parse_tiles("5550p"))
    assert kan.face_down_at == (0, 3)
    assert kan.turned_at is None
    assert kan.tiles[1].red


@pytest.fixture(scope="module")
def kans_game(logs_dir):
    """A game with an open kan, an added kan, and a riichi tile called away."""
    return read_log(logs_dir / "tenhou6_json" / "2011020415gm-00a9-0000-e037b629.json")[0]


def test_kans_in_a_real_game(kans_game):
    scenes = _scenes(kans_game)
    events = kans_game.events
    index = next(i for i, e in enumerate(events) if isinstance(e, Kakan))
    kakan = events[index]
    meld = next(m for m in _after(scenes, index).layout.seats[kakan.actor].melds if m.added is not None)
    assert meld.added == kakan.pai
    assert meld.tiles[0].kind == kakan.pai.kind
    assert meld.turned_at is not None
    index = next(i for i, e in enumerate(events) if isinstance(e, Daiminkan))
    meld = _after(scenes, index).layout.seats[events[index].actor].melds[-1]
    assert len(meld.tiles) == 4
    assert meld.turned_at is not None


def test_a_closed_kan_in_a_real_game(logs_dir):
    game = read_log(logs_dir / "tenhou6_json" / "2011020414gm-00a9-0000-ef18f336.json")[0]
    scenes = _scenes(game)
    index = next(i for i, e in enumerate(game.events) if isinstance(e, Ankan))
    meld = _after(scenes, index).layout.seats[game.events[index].actor].melds[-1]
    assert meld.face_down_at == (0, 3)
    assert meld.turned_at is None
    assert UNKNOWN not in meld.tiles


def test_after_a_riichi_tile_is_called_the_next_discard_goes_sideways(kans_game):
    scenes = _scenes(kans_game)
    events = kans_game.events
    call = next(
        i
        for i, e in enumerate(events)
        if isinstance(e, (Chi, Pon)) and any(isinstance(x, Reach) and x.actor == e.target for x in events[i - 4 : i])
    )
    declarer = events[call].target
    assert _after(scenes, call).layout.seats[declarer].pond.riichi_at is None
    following = next(
        i for i in range(call + 1, len(events)) if isinstance(events[i], Dahai) and events[i].actor == declarer
    )
    pond = _after(scenes, following).layout.seats[declarer].pond
    assert pond.riichi_at == len(pond.tiles) - 1


def test_an_exhaustive_draw_lays_the_tenpai_hands_open(logs_dir):
    for path in sorted((logs_dir / "tenhou6_json").iterdir())[:20]:
        game = read_log(path)[0]
        draws = [i for i, e in enumerate(game.events) if isinstance(e, Ryukyoku) and e.kind is DrawKind.EXHAUSTIVE]
        if draws:
            break
    else:
        pytest.skip("no exhaustive draw with hands shown in the first logs")
    scenes = _scenes(game)
    shown = game.events[draws[0]].shown
    layout = _after(scenes, draws[0]).layout
    assert any(seat.open_hand for seat in layout.seats)
    for hand in shown:
        assert sorted(layout.seats[hand.seat].open_hand, key=lambda t: t.kind) == sorted(
            hand.tiles, key=lambda t: t.kind
        )
        assert layout.seats[hand.seat].winning is None


def test_no_table_shows_more_than_four_tiles_of_a_kind_a_robbed_kan_stays_a_pon(demo):
    game, scenes = demo
    for scene in scenes:
        layout = scene.layout
        shown = [*layout.dora_indicators, *layout.ura_indicators]
        for seat in layout.seats:
            shown += [*seat.pond.tiles, *seat.open_hand, *([seat.winning] if seat.winning else [])]
            for meld in seat.melds:
                shown += [t for i, t in enumerate(meld.tiles) if i not in meld.face_down_at]
                shown += [meld.added] if meld.added else []
        counts = Counter(t.kind for t in shown if t != UNKNOWN)
        assert max(counts.values(), default=0) <= 4, (scene.after_event, counts.most_common(1))
    robbed = [
        (i, e) for i, e in enumerate(game.events) if isinstance(e, Hora) and isinstance(game.events[i - 1], Kakan)
    ]
    assert robbed  # the demo game has one: the kan's fourth tile is the winner's
    for index, win in robbed:
        loser = _after(scenes, index).layout.seats[win.target]
        assert all(m.added is None or m.added.kind != win.pai.kind for m in loser.melds)
