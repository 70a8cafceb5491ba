"""The frame codec: COBS, CRC, message layouts, and a decoder that survives anything."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.cobs import CobsError, cobs_decode, cobs_encode
from firmware_bridge.crc import crc16_ccitt_false
from firmware_bridge.frame import (
    MAX_ENCODED_BYTES,
    Frame,
    FrameDecoder,
    FrameError,
    FrameFault,
    decode_payload,
    encode_frame,
    encode_payload,
)
from firmware_bridge.layouts import MessageError, decode_body
from firmware_bridge.messages import (
    DEPOSIT_SEAT,
    Ack,
    BoardFlag,
    CalibrateSlot,
    Capability,
    CommitCalibration,
    Heartbeat,
    Hello,
    Message,
    MessageType,
    Nak,
    NakReason,
    RequestHello,
    RequestState,
    SlotChanged,
    SlotSample,
    State,
    WallChanged,
)

u8 = st.integers(0, 0xFF)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFF_FFFF)
samples = st.builds(SlotSample, u16, u8)


@st.composite
def states(draw: st.DrawFn) -> State:
    slots = draw(st.integers(0, 8))
    trays = tuple(tuple(draw(st.lists(samples, min_size=slots, max_size=slots))) for _ in range(4))
    points = (draw(u32), draw(u32), draw(u32), draw(u32))
    return State(BoardFlag(draw(u16)), draw(u8), draw(u8), draw(u8), draw(samples), trays, points)


messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(Hello, u8, u8, st.tuples(u8, u8, u8), u32, u16, u16.map(Capability), u8),
    states(),
    st.builds(SlotChanged, st.integers(0, DEPOSIT_SEAT), st.integers(0, 7), samples),
    st.builds(WallChanged, u8, u8, u8),
    st.builds(Heartbeat, u32, u16.map(BoardFlag)),
    st.just(RequestHello()),
    st.just(RequestState()),
    st.builds(CalibrateSlot, u8, u8, u16, u32),
    st.builds(CommitCalibration, u16),
    st.builds(Ack, u16),
    st.builds(Nak, u16, st.sampled_from(NakReason)),
)


def test_crc_is_ccitt_false() -> None:
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert crc16_ccitt_false(b"") == 0xFFFF


@given(st.binary(max_size=700))
def test_cobs_round_trip_and_no_zero(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(encoded) == data


def test_cobs_rejects_a_code_past_the_end() -> None:
    with pytest.raises(CobsError, match="runs past the end"):
        cobs_decode(b"\x05ab")


@given(messages, u16)
def test_frame_round_trip(message: Message, seq: int) -> None:
    wire = encode_frame(message, seq)
    assert wire[0] == 0
    assert wire[-1] == 0
    assert 0 not in wire[1:-1]
    assert FrameDecoder().feed(wire) == [Frame(seq, message)]


@given(st.lists(st.tuples(messages, u16), max_size=8), st.data())
def test_any_split_of_the_stream_decodes_the_same(sent: list[tuple[Message, int]], data: st.DataObject) -> None:
    stream = b"".join(encode_frame(message, seq) for message, seq in sent)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = FrameDecoder()
    got: list[Frame | FrameError] = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got += decoder.feed(stream[start:end])
    assert got == [Frame(seq, message) for message, seq in sent]


@settings(max_examples=300)
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash_and_never_yield_a_frame(noise: bytes) -> None:
    results = FrameDecoder().feed(noise)
    assert all(isinstance(item, FrameError) for item in results)


@settings(max_examples=200)
@given(
    st.lists(st.tuples(messages, u16), min_size=1, max_size=6), st.lists(st.binary(max_size=40), max_size=6), st.data()
)
def test_garbage_between_and_inside_frames_never_yields_a_frame_not_sent(
    sent: list[tuple[Message, int]], garbage: list[bytes], data: st.DataObject
) -> None:
    stream = bytearray(b"".join(encode_frame(message, seq) for message, seq in sent))
    for chunk in garbage:
        at = data.draw(st.integers(0, len(stream)))
        stream[at:at] = chunk
    decoded = [item for item in FrameDecoder().feed(bytes(stream)) if isinstance(item, Frame)]
    expected = [Frame(seq, message) for message, seq in sent]
    remaining = iter(expected)
    # Every decoded frame is one that was sent, in the order sent (a subsequence).
    assert all(any(frame == candidate for candidate in remaining) for frame in decoded)


@given(messages, u16, st.data())
def test_a_flipped_bit_is_always_caught(message: Message, seq: int, data: st.DataObject) -> None:
    payload = bytearray(encode_payload(message, seq))
    index = data.draw(st.integers(0, len(payload) - 1))
    payload[index] ^= 1 << data.draw(st.integers(0, 7))
    result = decode_payload(bytes(payload))
    assert isinstance(result, FrameError)


def test_errors_name_what_and_where() -> None:
    good = encode_frame(Ack(7), 1)
    decoder = FrameDecoder()
    decoder.feed(good)
    payload = bytearray(encode_payload(Ack(7), 1))
    payload[5] ^= 0x10
    (error,) = decoder.feed(b"\x00" + cobs_encode(bytes(payload)) + b"\x00")
    assert isinstance(error, FrameError)
    assert error.fault is FrameFault.BAD_CRC
    assert error.offset == len(good) + 1
    assert "stream offset" in str(error)
    assert "CRC" in str(error)


def test_other_protocol_version_is_recognised_not_called_garbage() -> None:
    (error,) = FrameDecoder().feed(encode_frame(RequestHello(), 3, version=2))
    assert isinstance(error, FrameError)
    assert error.fault is FrameFault.OTHER_VERSION
    assert error.version == 2


def test_body_that_does_not_fit_its_type_names_the_type() -> None:
    with pytest.raises(MessageError, match="STATE"):
        decode_body(MessageType.STATE, b"\x00" * 9)
    with pytest.raises(MessageError, match="HEARTBEAT"):
        decode_body(MessageType.HEARTBEAT, b"\x00")


def test_endless_garbage_without_delimiters_is_bounded() -> None:
    decoder = FrameDecoder()
    results = decoder.feed(b"\x01" * (MAX_ENCODED_BYTES * 3))
    assert [error.fault for error in results if isinstance(error, FrameError)] == [FrameFault.TOO_LONG]
    # The next real frame after the garbage still decodes.
    assert decoder.feed(encode_frame(Ack(1), 2))[-1] == Frame(2, Ack(1))
