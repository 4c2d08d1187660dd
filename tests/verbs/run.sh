#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# VM integration test of memory registration with stock rdma-core
# (libibverbs + libmthca) on arbel.ko against arbel-stub.
#
# One VM boot (scripts/vm/run.sh, LOAD=1, VM_PYTHON=1 by default) runs
# tests/verbs/verbs-guest.sh, which prints ibv_devices, ibv_devinfo -v,
# the output of arbel-verbs-test (the C test: registrations of 1 B .. 64 MiB
# on 4 KiB, THP and hugetlb pages with every access combination, each MPT
# decoded from `rdma -j -r res show mr` and each key driven through the
# stub's translation engine; bad inputs; re-registration; ENOMEM) and
# rdma-core's pyverbs tests test_device and test_pd.  This script checks
# the device listing and attributes on the host, re-numbers the guest's
# results, checks the stub's command trace and error log, and prints
#
#   ok N - name / not ok N - name: detail / skip - name: why
#   verbs: N passed, N failed
#
# (skips are not passed: they are counted on a "# skipped" line before the
# last line).  Exit status 1 if anything failed.
#
# Environment: OUT (default build/vm-verbs; the VM's output goes to
# OUT/vm, the guest programs to OUT/guest-bin), MODULE (default
# build/module/arbel.ko, copied first), BUILD=1 (scripts/build-module.sh
# --test first), VM_PYTHON (default 1; 0 skips pyverbs), NODE_GUID /
# PORT_GUID (the stub properties, and what ibv_devinfo must show),
# TEST_ARGS (for arbel-verbs-test, default "--enomem-secs 240"),
# TIMEOUT (VM, default 1200 s), VM_MEM (default 2G).  Others go to
# scripts/vm/run.sh.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO" || exit 1

OUT=${OUT:-$REPO/build/vm-verbs}
NODE_GUID=${NODE_GUID:-0x0002c90300feed10}
PORT_GUID=${PORT_GUID:-0x0002c90300feed11}
TEST_ARGS=${TEST_ARGS:---enomem-secs 240}
VM_PYTHON=${VM_PYTHON:-1}

# shellcheck source=../../scripts/tap.sh
. "$REPO/scripts/tap.sh"
finish() { tap_finish verbs; }

# ---- setup: packages, module, programs -------------------------------------
mkdir -p "$OUT"
if [ ! -f /usr/include/infiniband/verbs.h ]; then
	"$REPO/scripts/setup.sh" verbs >"$OUT/apt.log" 2>&1 ||
		{ nok "setup: installing libibverbs-dev" "see $OUT/apt.log"; finish; }
fi
if [ "${BUILD:-0}" = 1 ]; then
	scripts/build-module.sh --test >"$OUT/build-module.log" 2>&1 ||
		{ nok "setup: scripts/build-module.sh --test" "see $OUT/build-module.log"; finish; }
fi
MODULE=${MODULE:-$REPO/build/module/arbel.ko}
[ -f "$MODULE" ] || { nok "setup: module" "$MODULE does not exist (BUILD=1 builds it)"; finish; }
cp "$MODULE" "$OUT/arbel.ko"
rm -rf "$OUT/guest-bin"
make -s -C tests/verbs O="$OUT/guest-bin" >"$OUT/make.log" 2>&1 ||
	{ nok "setup: make -C tests/verbs" "$(tail -3 "$OUT/make.log" | tr '\n' ' ')"; finish; }

# ---- host: the decoder and parser against hand-made images -----------------
while IFS= read -r line; do
	case $line in
	"ok "*) ok "host ${line#ok * - }" ;;
	"not ok "*) r=${line#not ok * - }; nok "host ${r%%: *}" "${r#*: }" ;;
	esac
done < <("$OUT/guest-bin/arbel-verbs-test" --selftest)

# ---- the VM ----------------------------------------------------------------
V=$OUT/vm
mkdir -p "$V"
t0=$EPOCHSECONDS
VM_OUT=$V GUEST_BIN=$OUT/guest-bin MODULE=$OUT/arbel.ko LOAD=1 \
	VM_PYTHON=$VM_PYTHON VM_MEM=${VM_MEM:-2G} TIMEOUT=${TIMEOUT:-1200} \
	STUB="node-guid=$NODE_GUID,port-guid=$PORT_GUID${STUB:+,$STUB}" \
	CMD="verbs-guest.sh $TEST_ARGS" \
	scripts/vm/run.sh >"$OUT/output.txt" 2>"$OUT/run.err"
rc=$?
echo "# VM run: exit $rc after $((EPOCHSECONDS - t0)) s; output in $V/output.txt"
case $rc in
0) ok "VM: boots, loads arbel.ko, runs the guest steps, no kernel splat" ;;
122) nok "VM: no kernel splat" "$(grep -m3 -E 'BUG|WARNING|Oops|Call Trace' "$V/dmesg.txt" | tr '\n' ' ')" ;;
*) nok "VM: run" "scripts/vm/run.sh exit $rc: $(tail -5 "$OUT/run.err" | tr '\n' ' ')" ;;
esac

# section NAME: the lines between its markers; sec_rc NAME: its exit status
section() {
	awk -v s="=== $1 ===" -v e="=== end $1 rc=" \
		'index($0, e) == 1 { on = 0 } on { print } $0 == s { on = 1 }' "$V/output.txt"
}
sec_rc() {
	sed -n "s/^=== end $1 rc=\([0-9]*\) ===$/\1/p" "$V/output.txt"
}
hex16() {	# 0x0002c90300feed10 -> 0002c90300feed10
	printf '%016x' "$(($1))"
}
colon_guid() {	# -> 0002:c903:00fe:ed10
	hex16 "$1" | sed 's/\(....\)\(....\)\(....\)\(....\)/\1:\2:\3:\4/'
}

# ---- ibv_devices / ibv_devinfo -v ------------------------------------------
devs=$(section ibv_devices)
expect "ibv_devices lists arbel0 with node GUID $(hex16 "$NODE_GUID")" \
	"got: $(echo "$devs" | tr '\n' '|')" \
	grep -qE "^[[:space:]]*arbel0[[:space:]]+$(hex16 "$NODE_GUID")[[:space:]]*$" <<<"$devs"

info=$(section ibv_devinfo)
field() {	# the value of "name:" in ibv_devinfo's output
	awk -v k="$1:" '$1 == k { $1 = ""; sub(/^ +/, ""); print; exit }' <<<"$info"
}
expect "ibv_devinfo -v exits 0" "rc $(sec_rc ibv_devinfo)" [ "$(sec_rc ibv_devinfo)" = 0 ]
expect "ibv_devinfo -v: hca_id arbel0" "hca_id '$(field hca_id)'" [ "$(field hca_id)" = arbel0 ]
expect "ibv_devinfo -v: fw_ver 5.3.0" "fw_ver '$(field fw_ver)'" [ "$(field fw_ver)" = 5.3.0 ]
expect "ibv_devinfo -v: node_guid $(colon_guid "$NODE_GUID") (stub property node-guid)" \
	"node_guid '$(field node_guid)'" [ "$(field node_guid)" = "$(colon_guid "$NODE_GUID")" ]
expect "ibv_devinfo -v: vendor 0x02c9, part 25218 (0x6282)" \
	"vendor_id '$(field vendor_id)' vendor_part_id '$(field vendor_part_id)'" \
	test "$(field vendor_id)" = 0x02c9 -a "$(field vendor_part_id)" = 25218
expect "ibv_devinfo -v: phys_port_cnt 1, one port section (port 1)" \
	"phys_port_cnt '$(field phys_port_cnt)', ports: $(grep -cE '^[[:space:]]+port:' <<<"$info")" \
	test "$(field phys_port_cnt)" = 1 -a \
	"$(grep -E '^[[:space:]]+port:' <<<"$info" | awk '{print $2}' | tr '\n' ' ')" = "1 "
gid=$(sed -n 's/^[[:space:]]*GID\[ *0\]:[[:space:]]*\([0-9a-f:]*\).*/\1/p' <<<"$info" | head -1)
want_gid=fe80:0000:0000:0000:$(colon_guid "$PORT_GUID")
expect "ibv_devinfo -v: GID[0] is fe80::port-guid (stub property port-guid)" \
	"GID[0] '$gid', want $want_gid" [ "$gid" = "$want_gid" ]
for f in max_mr_size page_size_cap max_mr max_pd; do
	v=$(field "$f")
	expect "ibv_devinfo -v: $f reported ($v)" "empty or zero" \
		test -n "$v" -a "$v" != 0 -a "$v" != 0x0
done

# ---- the C test --------------------------------------------------------------
vt=$(section verbs-test)
if [ -z "$vt" ]; then
	nok "arbel-verbs-test" "no output (did the VM run it?)"
fi
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok * - }" ;;
	"not ok "*) r=${line#not ok * - }; nok "${r%%: *}" "${r#*: }" ;;
	"skip - "*) r=${line#skip - }; skp "${r%%: *}" "${r#*: }" ;;
	"# "*) echo "$line" ;;
	esac
done <<<"$vt"
if [ -n "$vt" ]; then
	expect "arbel-verbs-test ran to its summary line" \
		"last lines: $(tail -3 <<<"$vt" | tr '\n' '|')" \
		grep -qE '^verbs-test: [0-9]+ passed, [0-9]+ failed' <<<"$vt"
fi

# ---- pyverbs -----------------------------------------------------------------
if [ "$VM_PYTHON" = 1 ]; then
	py=$(section pyverbs)
	if [ -z "$py" ]; then
		nok "pyverbs: test_device, test_pd" "no output"
	else
		# unittest -v: "test_x (mod.Class.test_x) ... ok", where a docstring
		# may put the "... result" on the next line
		last=
		while IFS= read -r line; do
			case $line in
			test_*) last=${line%% *} ;;
			esac
			case $line in
			*" ... ok") ok "pyverbs: ${last:-?}" ;;
			*" ... skipped "*) skp "pyverbs: ${last:-?}" "${line#* ... skipped }" ;;
			*" ... FAIL" | *" ... ERROR" | *" ... unexpected success")
				case $last in
				# These assert max_qp, max_cq, max_sge... > 0; the driver
				# has no QP or CQ verbs (out of its scope), so it reports 0.
				test_query_device | test_query_device_ex)
					skp "pyverbs: $last" "asserts QP/CQ limits > 0; no QP/CQ verbs here" ;;
				*)
					nok "pyverbs: ${last:-?}" "${line##* ... } (see $V/output.txt)" ;;
				esac ;;
			esac
		done <<<"$py"
		summary=$(grep -E '^(OK|FAILED)' <<<"$py" | tail -1)
		echo "# pyverbs: $(grep -E '^Ran ' <<<"$py") ${summary}"
		expect "pyverbs: the unittest run ran tests" "'$summary'" grep -qE '^(OK|FAILED)' <<<"$summary"
	fi
else
	skp "pyverbs: test_device, test_pd" "VM_PYTHON=0"
fi

# ---- the stub's view ---------------------------------------------------------
T=$V/stub-trace.txt
if [ -s "$T" ]; then
	for op in SW2HW_MPT WRITE_MTT HW2SW_MPT QUERY_MPT; do
		echo "# trace: $op $(grep -c " $op op=" "$T") commands, $(grep " $op op=" "$T" | grep -vc 'status=0x00(OK)') not OK"
	done
	bad=$(grep -E ' (SW2HW_MPT|WRITE_MTT|HW2SW_MPT|QUERY_MPT) op=' "$T" |
		grep -v -e 'status=0x00(OK)' -e 'fault=injected-failure' | head -3)
	inj=$(grep -c 'fault=injected-failure' "$T")
	expect "stub trace: every SW2HW_MPT, WRITE_MTT, HW2SW_MPT, QUERY_MPT returned OK (but the $inj injected failures)" \
		"$(cut -c1-200 <<<"$bad" | tr '\n' '|')" [ -z "$bad" ]
	sw=$(grep -c ' SW2HW_MPT op=.*status=0x00' "$T")
	hw=$(grep -c ' HW2SW_MPT op=.*status=0x00' "$T")
	expect "stub trace: as many HW2SW_MPT as SW2HW_MPT ($sw)" "SW2HW $sw, HW2SW $hw" [ "$sw" = "$hw" ]
	q=$(grep -c ' QUERY_MPT op=' "$T")
	expect "stub trace: rdma -r res show mr reads the MPTs with QUERY_MPT ($q)" "none" [ "$q" -gt 0 ]
	xl_bad=$(grep -c '^#[0-9]* XLATE .*result=2$' "$T")
	expect "stub trace: no translation refused as BAD_REQUEST (test plumbing)" "$xl_bad" [ "$xl_bad" = 0 ]
else
	nok "stub trace" "$T missing or empty"
fi
if [ -f "$V/qemu-debug.log" ]; then
	complaints=$(grep -v '^$' "$V/qemu-debug.log" | head -3)
	expect "stub: no guest-error reports in qemu-debug.log" \
		"$(cut -c1-200 <<<"$complaints" | tr '\n' '|')" [ -z "$complaints" ]
fi

finish
