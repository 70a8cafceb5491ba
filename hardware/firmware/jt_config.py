"""Pins, wiring and defaults of the jantaku sensor board (rev A, docs/hardware.md)."""

FIRMWARE = (1, 0, 0)

I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 400000
ADS1115_ADDRESS = 0x48
MUX_SELECT_PINS = (6, 7, 8, 9)  # S0..S3, shared by both CD74HC4067
HX711_CLOCK = 10  # shared SCK
HX711_DATA = (11, 12, 13, 14)  # DOUT of the cells under walls 0-3

# Mux A (channels 0-15) feeds ADS1115 AIN0, mux B feeds AIN1.
SLOTS_PER_TRAY = 5
DENOMINATIONS = (10000, 5000, 1000, 500, 100)
WIRING: "dict[tuple[int, int], tuple[int, int]]" = {}
for _seat in range(3):
    for _slot in range(SLOTS_PER_TRAY):
        WIRING[(_seat, _slot)] = (0, _seat * SLOTS_PER_TRAY + _slot)
for _slot in range(SLOTS_PER_TRAY):
    WIRING[(3, _slot)] = (1, _slot)
DEPOSIT_WIRING = (0, 15)

# Nominal calibration (the same as firmware_bridge.calibration.default_calibration()).
EMPTY_READING = 26400
PER_STICK = {10000: 1.0, 5000: 0.5, 1000: 0.2, 500: 0.25, 100: 0.1}
DEPOSIT_PER_STICK = 0.2
TOLERANCE = 0.3
CALIBRATION_FILE = "calibration.json"

# Wall scale: HX711 counts per tile (a mahjong tile weighs about 12 g) and the tare per cell.
COUNTS_PER_TILE = 5000
TARE = (0, 0, 0, 0)

SNAPSHOT_MS = 100
HEARTBEAT_MS = 1000
NEW_HAND_RISE = 20  # tiles: walls rising again by at least this much mean a new hand
DEAD_WALL = 14
LIVE_WALL_MAX = 70
