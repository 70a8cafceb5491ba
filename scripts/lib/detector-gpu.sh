# Shared by the detector recipes for a lent GPU machine (scripts/*-detector*-gpu): sourced, not run.
#
# detector_gpu_args DEFAULT_SECONDS DEFAULT_WORK PHOTOS OUT [SECONDS] reads a script's arguments
# into photos, out and seconds, and the environment into device (DEVICE, default cuda), jobs
# (JOBS, 16), scenes (SCENES, 400) and work (WORK, the scratch folder); DEVICE=cpu JOBS=2
# SCENES=8 tries a script on a small machine, with a python3 that has the train extra first on PATH.
# Then seat_set draws a seat-view label set into the work folder and adds it to sources (after
# the photographs), train runs one variant in the background's way, and report prints each
# variant's figures. The caller sets common (the options every variant shares) before train.

detector_gpu_args() {
    local usage
    usage="usage: $(basename "$0") PHOTOS OUT [SECONDS]"
    seconds=${5:-$1}
    work=${WORK:-$2}
    photos=${3:?$usage}
    out=${4:?$usage}
    device=${DEVICE:-cuda}
    jobs=${JOBS:-16}
    scenes=${SCENES:-400}
    sources=(--photos "$photos/labels.json")
    export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
    mkdir -p "$work" "$out"
}

seat_set() {  # set name, its scene count, then seat_view_set's own options
    local name=$1 count=$2
    shift 2
    python3 -m vision.training.seat_view_set --out "$work/$name" --scenes "$count" --jobs "$jobs" "$@"
    sources+=(--photos "$work/$name/labels.json")
}

train() {  # variant name, then its own options; its model, metadata and log come back as OUT/<name>.tar
    local name=$1
    shift
    mkdir -p "$out/$name"
    python3 -m vision.training.train_detector --out "$out/$name" --device "$device" --workers 4 --jobs 5 \
        --seconds "$seconds" "${common[@]}" "$@" >"$out/$name/train.log" 2>&1 || echo "$name failed" >&2
    tar -C "$out" -cf "$out/$name.tar" "$name" && rm -r "${out:?}/$name"  # one file a variant comes back
}

report() {  # each variant's held-out figures, steps and photo frames, from its log
    local variant
    for variant in "$out"/*.tar; do
        echo "$variant"
        tar -xOf "$variant" --wildcards '*/train.log' | grep "held-out metrics\|steps fit\|photo frames [0-9]"
    done
}
