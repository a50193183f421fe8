# gpubound camp: fit, predict and validate on the synthetic camping fixture
# (tests/data/runs/camping-fixture) and the Nsight Compute fixtures
# (tests/data/ncu), and every bad input with its one line and exit code.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
FIXTURE="$GB_SRC/tests/data/runs/camping-fixture"
NCU="$GB_SRC/tests/data/ncu"
HAVE_GNUPLOT=0
command -v gnuplot >/dev/null 2>&1 && HAVE_GNUPLOT=1

cp -r "$FIXTURE" "$TMP/run"
RUN="$TMP/run"
MODEL="$TMP/model/campprof-model.json"

# band_rows N: the predict table in $OUT has N rows, 1..N active warps, each
# a positive best time not above the worst (a camped bound below the spread
# one is possible only where the fit says so; the fixture's is not).
band_rows() {
    printf '%s\n' "$OUT" | awk -v n="$1" '/^ *[0-9]+  / { k++; if ($1 != k || !($2 > 0) || $3 < $2) bad++ }
        END { exit !(k == n && !bad) }' && ok || bad "predict: not $1 rows of 0 < best <= worst"
}

# ---- fit ----
# Without --out the model goes to a new runs/campprof-fit-<UTC time> in the
# working directory, named on stdout; the run it reads is left as it was.
mkdir -p "$TMP/cwd"
before=$(cd "$RUN" && find . | sort)
(cd "$TMP/cwd" && "$GPUBOUND" camp fit "$RUN" --form paper >"$TMP/out" 2>"$TMP/err"); RC=$?
OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
[ "$RC" = 0 ] && ok || bad "camp fit without --out exited $RC"
[ "$before" = "$(cd "$RUN" && find . | sort)" ] && ok || bad "camp fit without --out changed the run it read"
defmodel=$(printf '%s\n' "$OUT" | sed -n 's/^Model: //p')
case "$defmodel" in
runs/campprof-fit-20[0-9][0-9][01][0-9][0-3][0-9]T[0-9][0-9][0-9][0-9][0-9][0-9]Z/campprof-model.json)
    ok ;;
*) bad "camp fit without --out names no default model on stdout: '$defmodel'" ;;
esac
[ -s "$TMP/cwd/$defmodel" ] && ok || bad "the model named on stdout was not written"
# An --out or --model inside the run it reads is a usage error; nothing is made.
expect 2 "fit: --out $RUN/sub lies inside the run $RUN, which camp fit only reads" \
    camp fit "$RUN" --form paper --out "$RUN/sub"
expect 2 "fit: --model $RUN/m.json lies inside the run" camp fit "$RUN" --model "$RUN/m.json"
[ ! -e "$RUN/sub" ] && [ ! -e "$RUN/m.json" ] && ok || bad "a refused camp fit wrote into the run"
expect 0 "" camp fit "$RUN" --form paper --out "$TMP/model"
[ -s "$MODEL" ] && ok || bad "fit did not write DIR/campprof-model.json"
cmp -s "$MODEL" "$TMP/cwd/$defmodel" && ok || bad "the default and --out models differ"
printf '%s\n' "$ERR" | grep -qx "wrote $MODEL" && ok || bad "fit does not say what it wrote"
printf '%s\n' "$OUT" | grep -q '^Model: ' && bad "fit with --out names a default model" || ok
for eq in "reads, spread over every partition: 36 points" "reads, camped on one: 36 points" \
    "writes, spread over every partition: 36 points" "writes, camped on one: 36 points"; do
    printf '%s\n' "$OUT" | grep -qF "$eq" && ok || bad "fit output lacks '$eq'"
done
# The fixture's 8-byte stores cost what 16-byte ones do when spread: b8 goes.
printf '%s\n' "$OUT" | grep -q "backward elimination dropped b8 (p 0\.[0-9]*); the model keeps:" && ok ||
    bad "fit does not report the elimination of b8"
[ "$(printf '%s\n' "$OUT" | grep -c 'backward elimination: every term kept')" = 3 ] && ok ||
    bad "the other three equations should keep every term"
printf '%s\n' "$OUT" | grep -Eq '^w +1499\.[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.e-]+$' && ok ||
    bad "the reads/spread slope is not printed as fitted"
printf '%s\n' "$OUT" | grep -q 'R^2 .* RMSE .* ns' && ok || bad "fit prints no R^2 and RMSE"
[ "$(printf '%s\n' "$OUT" | grep -c '^  sectors per instruction: 2 B 2.000 4 B 4.000 8 B 8.000 16 B 16.00$')" = 4 ] && ok ||
    bad "fit does not report the fixture's sectors per instruction"
grep -q '"format": "gpubound-campprof/1"' "$MODEL" && grep -q '"name": "Synthetic GPU (test fixture' "$MODEL" &&
    grep -q '"normalisation"' "$MODEL" && ok || bad "the model file lacks its format, device or normalisation"
# The same run gives the same model, byte for byte.
expect 0 "" camp fit "$RUN" --form paper --model "$TMP/m2.json" --format csv
cmp -s "$MODEL" "$TMP/m2.json" && ok || bad "two fits of one run differ"
printf '%s\n' "$OUT" | head -1 | grep -qx 'op,pattern,fit,term,estimate (ns),std_error (ns),t,p,r2,adj_r2,rmse (ns),n_obs' &&
    ok || bad "fit CSV header"
[ "$(printf '%s\n' "$OUT" | grep -c '^write,spread,final,')" = 4 ] && ok || bad "fit CSV: final write/spread should have 4 terms"
expect 0 "" camp fit "$RUN" --form paper --model "$TMP/m3.json" --format json
if need_python3; then
    printf '%s\n' "$OUT" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert len(r)==39 and r[0]["term"]=="(intercept)"' &&
        ok || bad "fit JSON does not parse or has the wrong rows"
    python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert len(m["equations"])==4' "$MODEL" &&
        ok || bad "the model file is not JSON with four equations"
fi

# --interactions: a slope per width offered; the fixture has none, so they go.
expect 0 "" camp fit "$RUN" --interactions --model "$TMP/mi.json"
printf '%s\n' "$OUT" | grep -q 'w:b<W> its own slope' && ok || bad "fit --interactions does not say so"
[ "$(printf '%s\n' "$OUT" | grep -Ec '^w:b(2|4|8) ')" = 12 ] && ok || bad "fit --interactions should show 3 slope terms per equation"
grep -q '"interactions": true' "$TMP/mi.json" && ok || bad "the model does not record --interactions"
expect 0 "" camp predict --model "$TMP/mi.json" --gld 8:1000 --warps 4
band_rows 4

# ---- predict ----
P=(camp predict --model "$MODEL")
expect 0 "" "${P[@]}" --gld 4:2097152 --gst 4:2097152 --threads 256 --regs 16 --smem 4224 \
    --grid 65536 --time-ns 90000 --at-warps 32
printf '%s\n' "$OUT" | grep -qF "launch: 256 threads per block, 16 registers per thread, 4224 bytes of shared memory per block, 65536 blocks: 64 active warps per SM" &&
    ok || bad "predict does not describe the launch"
printf '%s\n' "$OUT" | grep -qF "configurations: 1-36, 38-40, 42, 44-46, 48-52, 54-58, 60, 62-64 active warps per SM" &&
    ok || bad "predict lists the wrong configurations"
printf '%s\n' "$OUT" | grep -Eq '^ +32 +[0-9.]+ +[0-9.]+ +90\.000 +0\.[0-9]+ +\* +3[12]\.[0-9]+$' && ok ||
    bad "the measured row (32 warps, 90 us) is not marked or not reproduced"
[ "$(printf '%s\n' "$OUT" | grep -Ec '^ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +0\.[0-9]+')" = 57 ] && ok ||
    bad "predict should print 57 configurations"

# Achieved warps per configuration: 16 blocks of 8 warps on the fixture's
# 132 SMs are 128 warps, 128 / 132 = 0.9697 per SM at the configurations
# of 1, 2, 4, ... 32 warps (less than one wave at any block size); the header
# says so. With 65536 blocks (above) 32 warps achieve 31.77: 124 full waves
# of 528 blocks and a tail of 64 blocks (3.88 warps per SM) over 125 waves.
expect 0 "" "${P[@]}" --gld 4:4096 --threads 256 --regs 16 --smem 0 --grid 16 --format csv
# Block sizes that do not divide the 4096 threads round the grid up (3 warps:
# 43 blocks, 129 warps, 0.9773); every configuration stays near 1 warp per SM.
[ "$(printf '%s\n' "$OUT" | awk -F, 'NR > 1 { n++; if ($7 > 1.2) bad++ }
    $1 == 1 || $1 == 2 || $1 == 4 || $1 == 8 || $1 == 16 || $1 == 32 || $1 == 64 { k++; if ($7 < 0.9696 || $7 > 0.9698) bad++ }
    $1 == 3 { k++; if ($7 < 0.9772 || $7 > 0.9773) bad++ }
    END { print n + 0, k + 0, bad + 0 }')" = "32 7 0" ] &&
    ok || bad "predict --grid 16: achieved warps not 128/132 at the powers of two, 129/132 at 3"
expect 0 "" "${P[@]}" --gld 4:4096 --threads 256 --regs 16 --smem 0 --grid 16
printf '%s\n' "$OUT" | grep -qF "achieved warps: the grid leaves 32 of 32 configurations below their occupancy" &&
    ok || bad "predict --grid 16 does not say the grid lowers the achieved warps"
printf '%s\n' "$OUT" | grep -Eq '^ +8 +[0-9.]+ +[0-9.]+ +.* 0\.9697$' && ok || bad "predict table: no achieved warps on the 8-warp row"
expect 0 "" "${P[@]}" --gld 4:2097152 --gst 4:2097152 --threads 256 --regs 16 --smem 4224 \
    --grid 65536 --time-ns 90000 --at-warps 32 --format csv
printf '%s\n' "$OUT" | grep -Eq '^32,.*,31\.77[0-9]*$' && ok || bad "predict CSV: 32 warps of 65536 blocks do not achieve 31.77"

# CSV: best < application < worst on every row, one degree, the identity at 32 warps.
expect 0 "" "${P[@]}" --gld 4:2097152 --gst 4:2097152 --threads 256 --regs 16 --smem 4224 \
    --grid 65536 --time-ns 90000 --at-warps 32 --format csv
printf '%s\n' "$OUT" | head -1 | grep -qx 'active warps,best (µs),worst (µs),application (µs),degree,measured,achieved warps' &&
    ok || bad "predict CSV header"
printf '%s\n' "$OUT" | awk -F, 'NR > 1 { if (!($2 < $4 && $4 < $3)) bad = 1; d[$5] = 1; if ($1 == 32 && ($4 < 89.9999999 || $4 > 90.0000001 || $6 != "*")) bad = 1 }
    END { n = 0; for (k in d) n++; exit bad || n != 1 }' && ok || bad "predict CSV: band order, degree or identity"
expect 0 '"active warps": 1, "best \(µs\)"' "${P[@]}" --gld 4:1e6 --warps 8 --format json
[ "$(printf '%s\n' "$OUT" | grep -c '"active warps"')" = 8 ] && ok || bad "--warps 8 should give 8 rows"
printf '%s\n' "$OUT" | grep -q '"application (µs)": null' && ok || bad "without a time the application line is empty"

# --from-ncu equals the same counts given by hand (6 sectors per load: half
# 4-byte, half 8-byte; 20 per store: 5e6 / 16 sixteen-byte stores).
expect 0 "" "${P[@]}" --from-ncu "$NCU/transpose-raw.csv" --ncu-id 2 --format csv
A=$OUT
printf '%s\n' "$ERR" | grep -qF "launch 2 (gather_rows(double2 *, const double2 *, const int *, int)): loads 1000000 requests / 6000000 sectors" &&
    ok || bad "--from-ncu does not say what it read"
expect 0 "" "${P[@]}" --gld 4:500000,8:500000 --gst 16:312500 --threads 128 --regs 40 --smem 8192 \
    --grid 4096 --time-ns 1250 --format csv
[ "$A" = "$OUT" ] && ok || bad "--from-ncu and the same counts by hand differ"
expect 0 "kernel: transposeCoalesced\(float \*, const float \*, int, int\)" "${P[@]}" --from-ncu "$NCU/transpose-details.csv"
expect 2 "--warps replaces the launch" "${P[@]}" --gld 4:1 --threads 512 --warps 4

if [ "$HAVE_GNUPLOT" = 1 ]; then
    expect 0 "" "${P[@]}" --from-ncu "$NCU/transpose-raw.csv" --ncu-id 0 --chart "$TMP/charts/t.svg"
    for ext in svg png gp; do [ -s "$TMP/charts/t.$ext" ] && ok || bad "chart t.$ext missing"; done
    grep -q '</svg>' "$TMP/charts/t.svg" && ok || bad "t.svg is not a whole SVG"
    grep -q 'pt 3' "$TMP/charts/t.gp" && grep -qF 'measured (64 warps)' "$TMP/charts/t.gp" && ok ||
        bad "the chart has no star at the measured point"
fi

# Bad counts and options: one line, exit 2.
expect 2 "predict: --gld needs WIDTH:COUNT pairs such as 4:123456 .* not '3:100'" "${P[@]}" --gld 3:100 --warps 4
expect 2 "predict: --gld needs WIDTH:COUNT .* not '4:-5'" "${P[@]}" --gld 4:-5 --warps 4
expect 2 "predict: --gst needs WIDTH:COUNT .* not '4'" "${P[@]}" --gst 4 --warps 4
expect 2 "predict: --gld needs WIDTH:COUNT .* not '4:12x'" "${P[@]}" --gld 4:12x --warps 4
expect 2 "predict: --gld needs WIDTH:COUNT .* not '4:1,,'" "${P[@]}" --gld 4:1,, --warps 4
expect 2 "predict: --model is required" camp predict --gld 4:1 --warps 4
expect 2 "either with --gld/--gst or with --from-ncu, not both" "${P[@]}" --gld 4:1 --from-ncu "$NCU/transpose-raw.csv"
expect 2 "give the kernel's global load and store counts" "${P[@]}" --warps 4
expect 2 "predict: give the launch" "${P[@]}" --gld 4:1
expect 2 "predict: give the launch" "${P[@]}" --gld 4:1 --threads 256
# --smem means what it means in occupancy: static shared memory, required with a launch.
expect 2 "predict: give --smem BYTES, the kernel's static shared memory per block .*as in 'gpubound occupancy'" \
    "${P[@]}" --gld 4:1 --threads 256 --regs 16
expect 2 "predict: --at-warps needs --time-ns" "${P[@]}" --gld 4:1 --warps 4 --at-warps 2
expect 2 "predict: 37 active warps per SM is not among the configurations" "${P[@]}" --gld 4:1 --threads 256 --regs 16 --smem 0 --time-ns 5000 --at-warps 37
expect 2 "predict: --warps 65 is more than the 64 warps" "${P[@]}" --gld 4:1 --warps 65
expect 2 "predict: --time-ns needs a time in ns > 0, not '0'" "${P[@]}" --gld 4:1 --warps 4 --time-ns 0
expect 2 "predict: --chart needs a file name ending in .svg, not 'x.png'" "${P[@]}" --gld 4:1 --warps 4 --chart x.png
expect 2 "predict: --regs needs an integer from 0 to 255" "${P[@]}" --gld 4:1 --threads 256 --regs 300
expect 2 "predict: --threads 2048 is more than the 1024 threads" "${P[@]}" --gld 4:1 --threads 2048 --regs 16
# A block that cannot run (1024 threads x 255 registers: more than an SM's registers) gets no band.
expect 2 "predict: a block of 1024 threads with 255 registers per thread and 0 bytes of shared memory cannot run" \
    "${P[@]}" --gld 4:1 --threads 1024 --regs 255 --smem 0
expect 2 "predict: --ncu-id needs --from-ncu" "${P[@]}" --gld 4:1 --warps 4 --ncu-id 1
expect 2 "transpose-raw.csv holds 3 launches \(IDs 0, 1, 2\); pick one with --ncu-id" "${P[@]}" --from-ncu "$NCU/transpose-raw.csv"
expect 2 "has no launch with ID 7" "${P[@]}" --from-ncu "$NCU/transpose-raw.csv" --ncu-id 7
expect 2 "predict: unknown option '--bogus'" "${P[@]}" --bogus
expect 2 "predict: unexpected argument 'extra'" "${P[@]}" --gld 4:1 --warps 4 extra
expect 2 "predict: --cc needs a compute capability X.Y" "${P[@]}" --gld 4:1 --warps 4 --cc hopper
expect 0 "" "${P[@]}" --gld 4:1 --warps 4 --cc 9.0
band_rows 4

# Unedited exports recorded on a GPU by tests/device/ncu_export.sh, once
# committed under tests/data/ncu/recorded (README there), read with the
# H200 model: every one names its loads.
for f in "$NCU"/recorded/*.csv; do
    [ -e "$f" ] || continue
    [ -s "${f%.csv}.command" ] && ok || bad "$f has no .command file beside it"
    expect 0 "" camp predict --model "$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json" --from-ncu "$f"
    printf '%s\n' "$ERR" | grep -q "loads [1-9][0-9]* requests" && ok || bad "$f: no loads read"
done

# Models: missing, malformed, not a model, without a device.
expect 1 "camp predict: cannot read the model $TMP/none.json: .*; give a model written by 'gpubound camp fit'" \
    camp predict --model "$TMP/none.json" --gld 4:1 --warps 4
head -c 500 "$MODEL" >"$TMP/cut.json"
expect 1 "camp predict: $TMP/cut.json:[0-9]+:[0-9]+: " camp predict --model "$TMP/cut.json" --gld 4:1 --warps 4
cp "$RUN/run.json" "$TMP/run-as-model.json"
expect 1 "is not a CampProf model" camp predict --model "$TMP/run-as-model.json" --gld 4:1 --warps 4
sed 's/"term": "w"/"term": "x"/' "$MODEL" >"$TMP/badterm.json"
expect 1 'terms\[[0-9]+\]\.term = "x": allowed' camp predict --model "$TMP/badterm.json" --gld 4:1 --warps 4
if need_python3; then
    python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); del m["device"]; json.dump(m, open(sys.argv[2], "w"))' "$MODEL" "$TMP/nodev.json"
    expect 2 "the model does not record its device's limits; give --cc X.Y" camp predict --model "$TMP/nodev.json" --gld 4:1 --warps 4
    expect 0 "" camp predict --model "$TMP/nodev.json" --gld 4:1 --threads 256 --regs 16 --smem 0 --cc 9.0
    # cc 9.0 from the CUDA guide: 256 threads x 16 registers, 8 blocks of 8 warps = 64, the maximum.
    printf '%s\n' "$OUT" | grep -qF "16 registers per thread, 0 bytes of shared memory per block: 64 active warps per SM" &&
        ok || bad "predict --cc 9.0 without the model's device: not 64 active warps"
fi

# Nsight Compute exports: missing, malformed, lacking the counts.
expect 1 "camp predict --from-ncu: cannot read $TMP/none.csv" "${P[@]}" --from-ncu "$TMP/none.csv"
printf 'hello\nworld\n' >"$TMP/notncu.csv"
expect 1 "is not an Nsight Compute CSV export.*export it with 'ncu --csv --page raw'" "${P[@]}" --from-ncu "$TMP/notncu.csv"
sed '5s/,"7",/,/' "$NCU/transpose-raw.csv" >"$TMP/short.csv"
expect 1 "short.csv:5: 22 fields where the header" "${P[@]}" --from-ncu "$TMP/short.csv"
grep -v sectors_pipe_lsu_mem_global_op_ld "$NCU/transpose-details.csv" >"$TMP/nosectors.csv"
expect 1 "launch 0 .* lacks l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum; profile with ncu --csv --page raw --metrics l1tex__t_requests" \
    "${P[@]}" --from-ncu "$TMP/nosectors.csv"
# A value out of its range is a damaged export, not a missing metric: no profiling hint.
sed '7s/"usecond","61.47"/"usecond","-61.47"/' "$NCU/transpose-details.csv" >"$TMP/negtime.csv"
expect 1 "launch 0: gpu__time_duration.sum = -61.47 usecond: .*; the export is damaged or edited: export it again with 'ncu --csv --page raw'$" \
    "${P[@]}" --from-ncu "$TMP/negtime.csv"

# ---- validate ----
# Without --out: a new directory under runs/ of the working directory, named
# on stdout; nothing is written into the run it reads.
find "$RUN" -type f | sort >"$TMP/run-before"
mkdir -p "$TMP/cwd" && cd "$TMP/cwd"
expect 0 "" camp validate --model "$MODEL" "$RUN"
cd - >/dev/null
for app in gem clique transpose_coalesced transpose_diagonal; do
    printf '%s\n' "$OUT" | grep -Eq "^$app +8 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ " && ok || bad "validate lacks $app"
done
printf '%s\n' "$OUT" | grep -q "best bound 11.7% (GEM), application line 9.3% (clique counter)" && ok ||
    bad "validate does not quote the paper's figures"
VDIR=$(printf '%s\n' "$OUT" | sed -n 's/^Charts and validation.csv: //p')
case "$VDIR" in runs/campprof-validate-20*Z) ok ;; *) bad "validate did not name its default directory on stdout: '$VDIR'" ;; esac
VDIR="$TMP/cwd/$VDIR"
[ "$(wc -l <"$VDIR/validation.csv")" = 5 ] && head -1 "$VDIR/validation.csv" | grep -q '^application,configurations,' &&
    ok || bad "validate did not write validation.csv"
find "$RUN" -type f | sort | cmp -s - "$TMP/run-before" && ok || bad "validate wrote into the run it read"
if [ "$HAVE_GNUPLOT" = 1 ]; then
    for app in gem clique transpose_coalesced transpose_diagonal; do
        [ -s "$VDIR/campprof-$app.svg" ] && [ -s "$VDIR/campprof-$app.png" ] && ok ||
            bad "validate did not draw $app"
    done
fi
# --out inside a run it reads (directly, below it, or through a link) is refused.
expect 2 "validate: --out .* lies inside the run .*; give a directory outside it" \
    camp validate --model "$MODEL" "$RUN" --out "$RUN"
expect 2 "lies inside the run" camp validate --model "$MODEL" "$RUN" --out "$RUN/sub/v"
ln -s "$RUN" "$TMP/runlink"
expect 2 "lies inside the run" camp validate --model "$MODEL" "$RUN" --out "$TMP/runlink/v"
[ ! -e "$RUN/sub" ] && ok || bad "a refused --out was made"
# The fixture's applications were made at degrees 0.05, 0.5, 0.6 and 0.1 with
# 2% noise: the measured degrees and the line's error say so.
expect 0 "" camp validate --model "$MODEL" "$RUN" --out "$TMP/v2" --format csv
printf '%s\n' "$OUT" | head -1 | grep -qx 'application,configurations,best bound error (%),worst bound error (%),application line error (%),"line error, starts inside (%)",inside band (%),degree (median),degree min,degree max,warps min,warps max,time min (us),time max (us),kernel knee min,kernel knee max,in flight min (bytes),in flight max (bytes),outside domain,why outside' &&
    ok || bad "validate CSV header"
printf '%s\n' "$OUT" | awk -F, 'BEGIN { want["gem"] = 0.05; want["clique"] = 0.5; want["transpose_coalesced"] = 0.6; want["transpose_diagonal"] = 0.1 }
    NR > 1 { n++; d = $9 - want[$1]; if (d < -0.05 || d > 0.05 || $5 > 5) bad = 1 } END { exit bad || n != 4 }' &&
    ok || bad "validate: degrees or line errors far from how the fixture was made"

cp -r "$FIXTURE" "$TMP/novalid"
grep -v '"bench":"\(gem\|clique\|transpose_[a-z]*\)"' "$FIXTURE/results.json" >"$TMP/novalid/results.json"
sed -i "s/\"points_ok\": [0-9]*/\"points_ok\": $(grep -c '"status":"ok"' "$TMP/novalid/results.json")/" "$TMP/novalid/run.json"
expect 1 "has no measured validation records .*; record them with 'gpubound run camping'" \
    camp validate --model "$MODEL" "$TMP/novalid"
expect 1 "camp validate: .*nope is not a gpubound run directory" camp validate --model "$MODEL" "$TMP/nope"
expect 2 "validate: --model is required" camp validate "$RUN"
expect 2 "validate: expected a RUN_DIR" camp validate --model "$MODEL"
# Several runs: their applications (and kernel-spec points) together.
expect 0 "" camp validate --model "$MODEL" "$RUN" "$RUN" --out "$TMP/v3" --format csv
[ "$(printf '%s\n' "$OUT" | grep -c '^gem,')" = 2 ] && ok || bad "validate of two runs: not two gem rows"
expect 1 "camp validate: cannot read the model" camp validate --model "$TMP/none.json" "$RUN"

# ---- fit: bad input ----
expect 1 "camp fit: .* has no measured camping/read records with pattern=spread.*; record the camping suite with 'gpubound run camping'" \
    camp fit "$GB_SRC/tests/data/runs/bandwidth-fixture" --model "$TMP/bw.json"
[ ! -e "$TMP/bw.json" ] && ok || bad "a failed fit wrote a model"
expect 1 "camp fit: .*nope is not a gpubound run directory.*; give the directory of a run recorded by 'gpubound run camping'" \
    camp fit "$TMP/nope"
cp -r "$FIXTURE" "$TMP/badrun"
{ head -3 "$FIXTURE/results.json"; echo '{"suite": "camping", "bench": '; tail -n +4 "$FIXTURE/results.json"; } \
    >"$TMP/badrun/results.json"
expect 1 "camp fit: .*results.json:4:[0-9]+: a damaged record" camp fit "$TMP/badrun"
[ ! -e "$TMP/badrun/campprof-model.json" ] && ok || bad "a malformed run left a model behind"
expect 1 "camp fit: cannot write /nonexistent/dir/m.json: " camp fit "$RUN" --model /nonexistent/dir/m.json
expect 2 "camp: fit: expected a RUN_DIR; see 'gpubound help camp'" camp fit
expect 2 "fit: expected one RUN_DIR, not 2 arguments" camp fit "$RUN" "$RUN"
expect 2 "fit: --p-remove needs a p-value between 0 and 1, not '2'" camp fit "$RUN" --p-remove 2
expect 2 "fit: --format: unknown format 'xml'" camp fit "$RUN" --format xml
expect 2 "fit: unknown option '--bogus'" camp fit "$RUN" --bogus
expect 2 "fit: --out needs a value" camp fit "$RUN" --out
# --out is a directory, as everywhere: the model goes to DIR/campprof-model.json;
# the old use (a file name) is refused with the option that names the file.
expect 0 "" camp fit "$RUN" --out "$TMP/fitdir/sub"
[ -s "$TMP/fitdir/sub/campprof-model.json" ] && ok || bad "camp fit --out DIR wrote no DIR/campprof-model.json"
expect 2 "fit: --out names a directory .*; name the model file with --model FILE" camp fit "$RUN" --out "$TMP/old.json"
[ ! -e "$TMP/old.json" ] && ok || bad "camp fit --out FILE.json made something"
# A failed fit leaves no directory it made behind.
expect 1 "has no measured camping" camp fit "$GB_SRC/tests/data/runs/bandwidth-fixture" --out "$TMP/nofit/a"
[ ! -e "$TMP/nofit" ] && ok || bad "a failed camp fit left $TMP/nofit behind"

# ---- the command ----
expect 2 "camp: expected a subcommand: fit, predict, validate or detect" camp
expect 2 "camp: unknown subcommand 'bogus'" camp bogus
expect 0 "usage: gpubound camp fit RUN_DIR" camp --help
expect 0 "usage: gpubound camp fit RUN_DIR" camp fit --help
finish
