import pytest

from table_app.domain.seat import Relation, Seat, Wind
from table_app.domain.tile import tile_of_kind


def test_winds_follow_the_dealer():
    assert [s.wind(Seat.S0) for s in Seat] == [Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH]
    assert [s.wind(Seat.S2) for s in Seat] == [Wind.WEST, Wind.NORTH, Wind.EAST, Wind.SOUTH]


def test_wind_tiles():
    assert [w.tile for w in Wind] == [tile_of_kind(k) for k in range(27, 31)]


@pytest.mark.parametrize("seat", list(Seat))
def test_left_is_the_seat_before_and_right_the_seat_after(seat):
    assert seat.left == Seat((seat - 1) % 4)
    assert seat.next == Seat((seat + 1) % 4)
    assert seat.relation_to(seat.left) is Relation.LEFT
    assert seat.relation_to(seat.next) is Relation.RIGHT
    assert seat.relation_to(seat.seat_at(Relation.ACROSS)) is Relation.ACROSS
    assert seat.relation_to(seat) is Relation.SELF


@pytest.mark.parametrize("seat", list(Seat))
@pytest.mark.parametrize("other", list(Seat))
def test_relation_and_seat_at_are_inverse(seat, other):
    assert seat.seat_at(seat.relation_to(other)) == other
