import pytest

from table_app.domain.meld import Meld, MeldError, MeldKind, format_meld, parse_meld
from table_app.domain.notation import parse_tile, parse_tiles
from table_app.domain.seat import Relation, Seat


def test_chi_defaults_to_the_left_and_keeps_the_called_tile():
    meld = parse_meld("chi:546m")
    assert meld.kind is MeldKind.CHI
    assert meld.called == parse_tile("5m")
    assert meld.called_from is Relation.LEFT
    assert [str(t) for t in meld.tiles] == ["4m", "5m", "6m"]
    assert meld.from_seat(Seat.S0) is Seat.S3


def test_pon_with_source_and_red_five():
    meld = parse_meld("pon:055p@across")
    assert meld.called is not None
    assert meld.called.red
    assert meld.from_seat(Seat.S1) is Seat.S3
    assert meld.is_open


def test_closed_kan_is_not_open_and_has_no_source():
    meld = parse_meld("ankan:3333m")
    assert meld.kind is MeldKind.CLOSED_KAN
    assert not meld.is_open
    assert meld.called is None
    assert meld.from_seat(Seat.S0) is None


@pytest.mark.parametrize("text", ["chi:546m", "pon:777z@right", "kan:1111s@left", "ankan:0555p", "kakan:9999p@across"])
def test_text_round_trip(text):
    assert format_meld(parse_meld(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chi:124m", "consecutive"),
        ("chi:123z", "suited"),
        ("chi:12m3p", "one suit"),
        ("pon:778z", "no such tile"),
        ("pon:788z", "no such tile"),
        ("pon:778m", "of one kind"),
        ("pon:77m", "has 3 tiles"),
        ("kan:777m", "has 4 tiles"),
        ("ankan:3333m@left", "no source"),
        ("pon:777z@behind", "unknown meld source"),
        ("peng:777z", "unknown meld kind"),
        ("777z", "KIND:TILES"),
        ("pon:", "needs tiles"),
        ("pon:000m", "at most one red"),
    ],
)
def test_malformed_melds_name_the_problem(text, message):
    with pytest.raises(MeldError, match=message):
        parse_meld(text)


def test_open_meld_needs_its_called_tile_in_it():
    with pytest.raises(MeldError, match="not in the meld"):
        Meld(MeldKind.PON, parse_tiles("777z"), called=parse_tile("1z"), called_from=Relation.RIGHT)
    with pytest.raises(MeldError, match="names its called tile"):
        Meld(MeldKind.PON, parse_tiles("777z"))
    with pytest.raises(MeldError, match="oneself"):
        Meld(MeldKind.PON, parse_tiles("777z"), called=parse_tile("7z"), called_from=Relation.SELF)
