"""Camera-refereed games (hidden tiles ``?``) written as tenhou.net/6 with the hidden tiles
filled: the public events stay as they were, and the game replays to the same results."""

from __future__ import annotations

import json
from dataclasses import replace

from table_app.domain.tile import UNKNOWN
from table_app.interpret import TableSetup, new_session, step
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.journal.fill_hidden import fill_hidden
from table_app.journal.tenhou_export import tenhou6_game
from table_app.logs import read_log
from table_app.logs.tenhou6 import read_tenhou6_text
from table_app.rules.check import check_game, profile_for_log
from table_app.rules.events import Dahai, Dora, Hora, Ryukyoku, StartGame, StartKyoku, Tsumo
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU


def _refereed(game):
    profile = profile_for_log(TENHOU, game.rules)
    first = next(e.oya for e in game.events if isinstance(e, StartKyoku))
    session, events = new_session(TableSetup(profile, first_dealer=first)), []
    for observation in log_observations(game.events, profile, FeedOptions(trays=True)):
        decision = step(session, observation)
        session, events = decision.session, [*events, *decision.events]
    return events, profile


def _public(events):
    def hide(event):
        match event:
            case StartKyoku():
                return replace(event, tehais=((UNKNOWN,) * 13,) * 4)
            case Tsumo():
                return replace(event, pai=UNKNOWN)
            case Dahai():
                return replace(event, tsumogiri=False)
            case Hora():
                return replace(event, hand=None)
            case Ryukyoku():
                return Ryukyoku()  # the export names the draw the rules found (nagashi mangan)
        return event

    return [hide(e) for e in events if not isinstance(e, (Dora, StartGame))]


def test_filled_games_keep_their_public_events_and_results(logs_dir):
    paths = sorted((logs_dir / "tenhou6_json").iterdir())[:5]
    paths.append(logs_dir / "tenhou6_json" / "2019082700gm-00a9-0000-63d1f136.json")  # a nagashi mangan
    for path in paths:
        game = read_log(path)[0]
        events, profile = _refereed(game)
        assert any(isinstance(e, Tsumo) and e.pai.is_unknown for e in events)
        filled = fill_hidden(events, profile.red_fives)
        assert not any(isinstance(e, Tsumo) and e.pai.is_unknown for e in filled)
        assert _public(filled) == _public(events)
        text = json.dumps(tenhou6_game(filled, profile), ensure_ascii=False)
        (back,) = read_tenhou6_text(text, f"filled {path.name}")
        result = check_game(back, profile)
        assert result.mismatches == (), path.name
        assert result.final.scores == replay(events, profile).scores
        assert _public(back.events) == _public(events)


def test_the_export_command_fills_only_when_asked(tmp_path, logs_dir, capsys):
    from table_app.cli import main
    from table_app.journal import GameStore

    game = read_log(sorted((logs_dir / "tenhou6_json").iterdir())[0])[0]
    events, profile = _refereed(game)
    store = GameStore(tmp_path / "t.db")
    number = store.new_game(profile.name, ("",) * 4, (25000,) * 4, at=0.0)
    store.append_all(number, events, at=0.0)
    store.close()
    db = str(tmp_path / "t.db")
    assert main(["export", str(number), "--format", "tenhou", "--db", db]) == 2
    assert "--fill-hidden" in capsys.readouterr().err
    out = tmp_path / "filled.json"
    assert main(["export", str(number), "--format", "tenhou", "--fill-hidden", "--db", db, "-o", str(out)]) == 0
    assert main(["replay", "--check", str(out)]) == 0
    assert "0 mismatches" in capsys.readouterr().out
