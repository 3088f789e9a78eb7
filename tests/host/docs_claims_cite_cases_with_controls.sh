#!/usr/bin/env bash
# Every VM case that docs/Hornet.rst cites as evidence in a table ("Claims
# and the attacks that test them", column Cases; "What the caller sends
# with a signed load", column "Why, and the case that shows it"; "What
# Hornet adds on 7.3 to the core's check", column "shown on 7.3 by"; and
# any other table with a column headed like them) exists, and has a
# control: the case itself shows that what it asserts does not hold
# without the thing the claim credits (issue 32, "Every claim is checked
# against Hornet off").
#
# A citation is ``NAME`` in such a column: ``vm73/NAME`` is the case NAME
# run on 7.3, which must then be a 6.12 case that tests/vm/one-kernel.list
# does not keep off 7.3; a name after "KUnit" is a KUnit case or suite of
# security/hornet/; a host test's name is a host test; a row of
# tests/vm/cases/verdict-table is a row; any other name shaped like a
# case's (three or more lowercase words joined by _, the first one that
# starts a case's name: hornet, lskel, nicdiag, ima, linux73, ...) must be
# tests/vm/cases/NAME.sh. In the other columns only names of
# existing cases count. A name that is none of these is a dangling
# citation, and fails.
#
# Each cited case (on each kernel it is cited for) must meet one rule:
#   hornet-off  (a) its header comment states a control: a sentence that
#               starts with "Control", "Controls" or "The control of" and
#               whose paragraph names the mode it runs in (audit, off,
#               "without Hornet"), or one that starts with "In audit
#               mode", "Audit mode", "In off mode", "Off mode" or "With
#               Hornet off"; and (b) its code does work (a command other
#               than set-up) both with Hornet in enforce and with Hornet
#               in audit or off. The mode is followed line by line, on
#               the branch of `case "$(uname -r)"` that the kernel takes:
#               the boot's "# vm-append: hornet.mode=" (lsm= without
#               hornet is off), set_mode, hornet_write .../mode (not one
#               expected to fail), echo MODE >.../mode, hornet_attack past
#               KIND MODE MODE, lskel_race flip MODE, any function of the
#               case or of the *_lib.sh files it sources that does one of
#               these (with its arguments and `for VAR in` words resolved),
#               and work left running in the background (&, until `wait`)
#               across a change. A case that runs wholly in audit or off,
#               or sets audit before it does anything in enforce, has no
#               Hornet-off control: its audit or off is the case itself.
#   companion   the case's control paragraph names a case Y whose header
#               starts "The control of" this case, this case works in
#               enforce and Y in audit or off (or the other way round:
#               this case is Y).
#   annotated   a header line "# control-without-hornet-off: REASON", for
#               a control of another kind that the case does contain (the
#               same input on a path without the defence: a plain loader,
#               the capability, the policy or lock not in force; or, for
#               a claim about the core or about Hornet's own records, what
#               the case compares against). The REASON is for review: no
#               test can check it. It is not accepted on a case that meets
#               hornet-off, which needs none.
# A case that meets none fails the test, by name.
#
# And hornet_loader_cannot_start_a_nested_run, whose nested_run=-22 comes
# from bpf_sys_bpf()'s command filter and holds with Hornet off (issue 32,
# item 3), may be cited only in a clause that gives the refusal to the
# core ("by the core, not Hornet"), unless it meets hornet-off or
# companion.
#
# Control: the checker runs on synthetic trees first: a citation of a case
# without a control, of one whose control is only in its comment, or only
# on the other kernel's branch, of one that runs wholly in audit, of one
# that sets audit before any enforce work, of one whose companion does not
# name it back, a dangling citation, a vm73/ citation of a case kept off
# 7.3, the nested-run case cited for a Hornet guarantee, and an annotation
# on a case that needs none each fail it, naming the case; the same trees
# with the control (in the code, through a function of the case, or in a
# companion), the annotation or the core's wording pass.
# shellcheck disable=SC2016 # awk programs, and shell for the synthetic cases
source "$(dirname "$0")/lib.sh"

# --- the docs' tables ---------------------------------------------------

# In: an RST file. Out, for each ``literal`` in a body cell of a table
# (list-table or simple table): SECTION HEADER ROW CLAUSE TOKEN, separated
# by \037 (a field may be empty),
# where HEADER is the cell's column header and CLAUSE the cell's text from
# the last ";" before the token up to it.
TABLES_AWK='
function emit(c, text,    t, before, tok, cl) {
	t = text
	before = ""
	while (match(t, /``[^`]+``/)) {
		tok = substr(t, RSTART + 2, RLENGTH - 4)
		before = before substr(t, 1, RSTART - 1)
		cl = before
		sub(/.*;/, "", cl)
		printf "%s\037%s\037%d\037%s\037%s\n", section, hdr[c], row - hrows, cl, tok
		before = before "``" tok "``"
		t = substr(t, RSTART + RLENGTH)
	}
}
function end_row(   c) {
	for (c = 1; c <= ncell; c++) {
		if (row <= hrows)
			hdr[c] = hdr[c] (hdr[c] == "" ? "" : " ") cell[c]
		else
			emit(c, cell[c])
		cell[c] = ""
	}
	ncell = 0
}
function add(c, s) {
	gsub(/^[ \t]+|[ \t]+$/, "", s)
	if (c > ncell)
		ncell = c
	if (s != "")
		cell[c] = cell[c] (cell[c] == "" ? "" : " ") s
}
function start(m,    c) {
	mode = m; row = 0; col = 0; ncell = 0
	for (c = 1; c <= 20; c++) { hdr[c] = ""; cell[c] = "" }
}
mode == "list" {
	if ($0 ~ /^   :header-rows:/) { hrows = $0; sub(/.*: */, "", hrows); hrows += 0; next }
	if ($0 ~ /^   :/ || $0 ~ /^[ \t]*$/) next
	if ($0 ~ /^   \* - /) { end_row(); row++; col = 1; add(1, substr($0, 8)); next }
	if ($0 ~ /^     - /) { col++; add(col, substr($0, 8)); next }
	if ($0 ~ /^       /) { add(col, $0); next }
	end_row()
	mode = ""
}
mode == "simple" {
	if ($0 ~ /^=+( +=+)+ *$/) {
		end_row()
		if (++rules == 2) hrows = row
		else mode = ""
		next
	}
	if ($0 ~ /^[ \t]*$/) next
	if (substr($0, starts[1], starts[2] - starts[1]) !~ /^ *$/) { end_row(); row++ }
	for (i = 1; i <= ncols; i++)
		add(i, i < ncols ? substr($0, starts[i], starts[i + 1] - starts[i]) : substr($0, starts[i]))
	next
}
/^\.\. list-table::/ { start("list"); hrows = 0; next }
/^=+( +=+)+ *$/ {
	start("simple"); rules = 1; hrows = 1000
	ncols = 0; s = $0; off = 0
	while (match(s, /=+/)) {
		starts[++ncols] = off + RSTART
		off += RSTART + RLENGTH - 1
		s = substr($0, off + 1)
	}
	next
}
/^(=+|-+|~+)$/ && prev !~ /^[ \t]*$/ && length($0) >= length(prev) { section = prev }
{ prev = $0 }
END { if (mode != "") end_row() }
'

# A column that cites cases.
CITING_HEADER='[Cc]ase|shown .* by'
# The shape of a case's name, and the words that start one.
CASE_SHAPE='^[a-z][a-z0-9]*(_[a-z0-9]+){2,}$'
# case_family TREE NAME: whether NAME starts with the first word of a
# case of TREE.
case_family() {
	local f
	for f in "$1"/tests/vm/cases/"${2%%_*}"_*.sh; do
		[ -e "$f" ] && return 0
	done
	return 1
}

# citations TREE: one line per citation in TREE's docs/Hornet.rst tables:
#   KIND NAME SECTION-ROW WHY CLAUSE (separated by \037), where KIND is vm,
# vm73, kunit, host, row or dangling, and WHY says why a dangling one is.
citations() {
	local tree=$1 sect hdr row clause tok kind name why
	local cases=$tree/tests/vm/cases
	awk "$TABLES_AWK" "$tree/docs/Hornet.rst" |
	while IFS=$'\037' read -r sect hdr row clause tok; do
		kind='' name=$tok why=''
		if [[ $hdr =~ $CITING_HEADER ]]; then
			if [[ $tok == vm73/* ]]; then
				kind=vm73 name=${tok#vm73/}
			elif [[ $clause =~ KUnit\ *$ ]]; then
				kind=kunit
			elif [ -f "$tree/tests/host/$tok.sh" ]; then
				kind=host
			elif [ -f "$cases/verdict-table" ] &&
			     awk -F'|' -v n="$tok" '!/^#/ { gsub(/ /, "", $1); if ($1 == n) f = 1 } END { exit !f }' \
				     "$cases/verdict-table"; then
				kind=row
			elif [[ $tok =~ $CASE_SHAPE ]] && case_family "$tree" "$tok"; then
				kind=vm
			fi
		elif [[ $tok == vm73/* ]] && [ -f "$cases/${tok#vm73/}.sh" ]; then
			kind=vm73 name=${tok#vm73/}
		elif [[ $tok =~ $CASE_SHAPE ]] && [ -f "$cases/$tok.sh" ]; then
			kind=vm
		fi
		[ -n "$kind" ] || continue
		case "$kind" in
		vm)
			if [ ! -f "$cases/$name.sh" ] || [[ $name == *_lib ]]; then
				kind=dangling why="no tests/vm/cases/$name.sh"
			fi
			;;
		vm73)
			if [ ! -f "$cases/$name.sh" ] || [[ $name == *_lib ]]; then
				kind=dangling why="no tests/vm/cases/$name.sh"
			elif grep -q '^# vm-kernel:' "$cases/$name.sh"; then
				kind=dangling why="$name boots only its own kernel, so there is no vm73/$name"
			elif grep -q "^$name:" "$tree/tests/vm/one-kernel.list" 2>/dev/null; then
				kind=dangling why="tests/vm/one-kernel.list keeps $name off 7.3, so vm73/$name never runs"
			fi
			;;
		kunit)
			if ! grep -Eqs "KUNIT_CASE\($name\)|\.name *= *\"$name\"" "$tree"/security/hornet/*.c; then
				kind=dangling why="no KUnit case or suite $name in security/hornet/"
			fi
			;;
		esac
		[ "$kind" != dangling ] || name=$tok
		printf '%s\037%s\037%s\037%s\037%s\n' "$kind" "$name" "$sect, row $row" "$why" "$clause"
	done
}

# --- what a case does with Hornet's mode ---------------------------------

# awk -v kernel=6.12|7.3 "$CONTROL_AWK" LIB... CASE: follows the case's
# mode line by line (see the top of this file) and reads its header. Out,
# tab-separated:
#   work MODE LINE HOW      the first line that works in MODE, and what
#                           put Hornet in MODE
#   control 1|0 TEXT        a control statement; 1: it names the mode
#   control_of NAME         a header sentence "The control of NAME"
#   names NAME...           case-shaped words of the control paragraph
#   annotation REASON
CONTROL_AWK='
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function nth(args, n,    a) { split(args, a, SUBSEP); return a[n] }
function unquote(w) { gsub(/["\047;)]/, "", w); return w }
# resolve(W, ARGS): the modes word W stands for, " m1 m2 " or "".
function resolve(w, args,    n, a, i, v, out, k) {
	w = unquote(w)
	if (index(MODES, " " w " ")) return " " w " "
	if (w ~ /^\$\{?[0-9]\}?$/) {
		gsub(/[^0-9]/, "", w)
		n = split(args, a, SUBSEP)
		return (w + 0 <= n) ? resolve(a[w + 0], "") : ""
	}
	if (w ~ /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/) {
		gsub(/[${}]/, "", w)
		for (i = ld; i >= 1; i--)
			if (lvar[i] == w) {
				n = split(lwords[i], a, " ")
				out = ""
				for (k = 1; k <= n; k++)
					if (index(MODES, " " a[k] " ")) out = out " " a[k]
				return out == "" ? "" : out " "
			}
	}
	return ""
}
# argwords(S, FROM): the words of S after the word FROM, up to ; || && ) or
# >, joined by SUBSEP.
function argwords(s, from,    p, rest, out, n, a, i) {
	p = index(s, from)
	rest = substr(s, p + length(from))
	sub(/(;|\|\||&&|\)|>).*/, "", rest)
	n = split(trim(rest), a, /[ \t]+/)
	out = ""
	for (i = 1; i <= n; i++) out = out (i > 1 ? SUBSEP : "") a[i]
	return out
}
function work(set, ln, how,    n, a, i) {
	n = split(trim(set), a, " ")
	for (i = 1; i <= n; i++)
		if (!(a[i] in wline)) { wline[a[i]] = ln; whow[a[i]] = how }
}
function switch_to(set, ln, how) {
	if (set == "") return
	cur = set
	curhow = how ", line " ln
	if (bg) work(cur, ln, curhow ", work left running")
}
function is_work(t,    fw) {
	t = trim(t)
	while (t ~ /^(if|elif|while|until|then|do|else|!|\{|\() /) sub(/^[^ ]+ +/, "", t)
	if (t == "" || t ~ /^(fi|done|esac|then|do|else|;;|\{|\}|\(|\))([ ;>]|$)/) return 0
	if (t ~ /^(for|case) / || t ~ /^\. /) return 0
	fw = t
	sub(/[ ;].*/, "", fw)
	if (index(SETUP, " " fw " ")) return 0
	if (t ~ /^[A-Za-z_][A-Za-z0-9_]*=/ && t !~ /\$\(|`/) return 0
	if (fw ~ /^(echo|printf)$/ && t !~ /fail|\| *grep/) return 0
	if (fw ~ /^(\[|\[\[|test)$/ && t !~ /fail/) return 0
	return 1
}
# mode_write(S): the word a mode write in S writes, or "".
function mode_write(s,    t) {
	if (s ~ /expect_errno +-/ || s ~ /nocap/) return ""
	if (match(s, /hornet_write +"?(\$HORNET_FS|\$\{HORNET_FS\}|\/sys\/kernel\/security\/hornet)\/mode"? +[^ ;|&>]+/)) {
		t = substr(s, RSTART, RLENGTH)
		sub(/.* /, "", t)
		return t
	}
	if (match(s, /echo +[^ >]+ *> *"?(\$HORNET_FS|\$\{HORNET_FS\}|\/sys\/kernel\/security\/hornet)\/mode/)) {
		t = substr(s, RSTART, RLENGTH)
		sub(/^echo +/, "", t)
		sub(/ *>.*/, "", t)
		return t
	}
	return ""
}
# setter_call(S): the name of a mode-setting function S calls, or "".
function setter_call(s,    f) {
	for (f in setter)
		if (match(s, "(^|[;&|!(] *|then +|do +|else +)" f "( |$)")) return f
	return ""
}
function glob_match(pat, str,    re) {
	re = pat
	gsub(/\./, "\\.", re)
	gsub(/\*/, ".*", re)
	gsub(/\?/, ".", re)
	return str ~ ("^(" re ")$")
}
function active(   i) {
	for (i = 1; i <= ud; i++) if (!uact[i]) return 0
	return 1
}
# run(CTX, ARGS, DEPTH): follow the lines of CTX (main, or a function of
# the case) with the positional arguments ARGS.
function run(ctx, args, depth,    i, s, ln, t, lab, w, ww, f, set, p, na, a, k, v) {
	if (depth > 4) return
	na = split(args, a, SUBSEP)
	for (i = 1; i <= nl[ctx]; i++) {
		s = L[ctx, i]
		ln = LN[ctx, i]
		t = trim(s)
		# in a function of the case: its arguments for $1...
		for (k = 1; depth && k <= 9; k++) {
			v = k <= na ? a[k] : ""
			gsub(/&/, "\\&", v)
			gsub("\\$\\{?" k "\\}?", v, t)
		}
		# case ... in / esac, and the branches of case "$(uname -r)"
		if (t ~ /^esac([ ;]|$)/) {
			if (ud && udepth[ud] == cd) ud--
			cd--
			continue
		}
		if (ud && udepth[ud] == cd && match(t, /^[^ ()]+\)/)) {
			lab = substr(t, 1, RLENGTH - 1)
			t = trim(substr(t, RLENGTH + 1))
			if (!umatched[ud] && glob_match(lab, KV)) { uact[ud] = 1; umatched[ud] = 1 }
			else uact[ud] = 0
			if (t == "") continue
		} else if (cd && match(t, /^("[^"]*"|[^ ()"]+)( *\| *("[^"]*"|[^ ()"]+))*\)/))
			t = trim(substr(t, RLENGTH + 1))
		if (t ~ /(^|[;&|] *)case .* in$/) {
			cd++
			if (t ~ /case "\$\(uname -r\)" in$/) { ud++; udepth[ud] = cd; uact[ud] = 0; umatched[ud] = 0 }
			continue
		}
		# loops
		if (t ~ /^done([ ;><]|$)/) { if (ld) ld--; continue }
		if (t ~ /^for [A-Za-z_][A-Za-z0-9_]* in /) {
			ld++
			lvar[ld] = t; sub(/^for /, "", lvar[ld]); sub(/ .*/, "", lvar[ld])
			lwords[ld] = t; sub(/^for [^ ]+ in /, "", lwords[ld]); sub(/;.*/, "", lwords[ld])
			gsub(/["\047]/, "", lwords[ld])
			continue
		}
		if (t ~ /^(while|until) /) { ld++; lvar[ld] = ""; lwords[ld] = "" }
		if (!active()) continue
		if (t ~ /^wait([ ;]|$)/) { bg = 0; continue }
		# the mode
		if (match(t, /(hornet_attack|attack_out) +past +[^ ]+ +[^ ]+ +[^ ]+/)) {
			p = split(substr(t, RSTART, RLENGTH), ww, / +/)
			switch_to(resolve(ww[5], args), ln, "hornet_attack past .. " unquote(ww[5]))
			work(cur, ln, curhow)
			continue
		}
		if (match(t, /lskel_race[-a-z0-9]* +flip +[^ );|&]+/)) {
			p = split(substr(t, RSTART, RLENGTH), ww, / +/)
			work(cur, ln, curhow)
			switch_to(resolve(ww[3], args), ln, "lskel_race flip " unquote(ww[3]))
			work(cur, ln, curhow)
			continue
		}
		w = mode_write(t)
		if (w != "") {
			switch_to(resolve(w, args), ln, (t ~ /^echo/ ? "echo " : "hornet_write ") unquote(w) " >mode")
			continue
		}
		f = setter_call(t)
		if (f != "") {
			switch_to(resolve(setter[f], argwords(t, f)), ln, f " " unquote(nth(argwords(t, f), 1)))
			continue
		}
		# a function of the case: follow its lines
		f = t
		while (f ~ /^(if|elif|while|until|then|do|else|!) /) sub(/^[^ ]+ +/, "", f)
		sub(/[ ;|&].*/, "", f)
		if ((f, "fn") in casefn) {
			run(f, argwords(t, f), depth + 1)
			if (t ~ /[^&]&[ \t]*$/) bg = 1
			continue
		}
		if (is_work(t)) {
			work(cur, ln, curhow)
			if (t ~ /[^&]&[ \t]*$/) bg = 1
		}
	}
}
BEGIN {
	MODES = " off audit enforce "
	SETUP = " hornet_begin nd_begin nd_begin_no_hornet on_exit say audit_mark trap set shift local return exit sleep rm : true false break continue wait export unset cd mkdir "
	KV = kernel == "7.3" ? "7.3.0" : "6.12.0"
	casefile = ARGV[ARGC - 1]
}
FNR == 1 { fn = ""; hdr = (FILENAME == casefile); pend = ""; para = 0 }
# the header of the case
hdr && /^#/ {
	h = $0
	if (h ~ /^# vm-append: /) { append = h; next }
	if (h ~ /^# control-without-hornet-off:/) {
		sub(/^# control-without-hornet-off: */, "", h)
		print "annotation\t" h
		next
	}
	if (h ~ /^# (vm-[a-z]+|needs):/) next
	sub(/^# ?/, "", h)
	if (trim(h) == "") { para++; next }
	ptext[para] = ptext[para] (ptext[para] == "" ? "" : " ") trim(h)
	next
}
hdr { hdr = 0 }
# code: join continued lines, drop comments
{
	s = $0
	if (pend != "") { s = pend " " trim(s); pend = "" }
	else start_ln = FNR
	if (s ~ /\\$/) { pend = substr(s, 1, length(s) - 1); next }
	if (s ~ /^[ \t]*#/ || s ~ /^[ \t]*$/) next
	sub(/[ \t]+#[^"\047]*$/, "", s)
}
fn != "" {
	if (s ~ /^}/) { fn = ""; next }
	nl[fn]++; L[fn, nl[fn]] = s; LN[fn, nl[fn]] = start_ln
	next
}
s ~ /^[A-Za-z_][A-Za-z0-9_]*\(\) *\{/ {
	name = s
	sub(/\(.*/, "", name)
	delete_fn(name)
	if (FILENAME == casefile) casefn[name, "fn"] = 1
	body = s
	sub(/^[^{]*\{/, "", body)
	if (body ~ /\}[ \t]*$/) {
		sub(/\}[ \t]*$/, "", body)
		nl[name] = 1; L[name, 1] = body; LN[name, 1] = start_ln
	} else {
		fn = name
		if (trim(body) != "") { nl[name] = 1; L[name, 1] = body; LN[name, 1] = start_ln }
	}
	next
}
FILENAME == casefile { nl["main"]++; L["main", nl["main"]] = s; LN["main", nl["main"]] = start_ln }
function delete_fn(name) { nl[name] = 0; delete casefn[name, "fn"] }
END {
	# mode-setting functions: the word their mode write writes
	for (k = 1; k <= 3; k++)
		for (key in nl) {
			if (key == "main" || (key in setter)) continue
			for (i = 1; i <= nl[key]; i++) {
				w = mode_write(L[key, i])
				if (w == "" && (f = setter_call(L[key, i])) != "") {
					w = setter[f]
					if (w ~ /^"?\$\{?[0-9]\}?"?$/) {
						d = w
						gsub(/[^0-9]/, "", d)
						w = nth(argwords(L[key, i], f), d + 0)
					}
				}
				if (w != "") { setter[key] = w; break }
			}
		}
	# the boot
	cur = ""
	curhow = ""
	if (match(append, /hornet\.mode=[a-z]+/)) {
		cur = " " substr(append, RSTART + 12, RLENGTH - 12) " "
		curhow = "boot: hornet.mode=" trim(cur)
	}
	if (match(append, /lsm=[^ ]+/) && substr(append, RSTART, RLENGTH) !~ /hornet/) {
		cur = " off "
		curhow = "boot: " substr(append, RSTART, RLENGTH) ", no Hornet"
	}
	run("main", "", 0)
	for (m in wline) print "work\t" m "\t" wline[m] "\t" whow[m]
	# the header: control statements
	for (p = 0; p <= para; p++) {
		t = ptext[p]
		while (t != "") {
			if (match(t, /(^|[.:;!?)] )(The control of |Controls?[ :,(]|(In audit|Audit|In off|Off) mode|With Hornet off)/)) {
				st = substr(t, RSTART)
				sub(/^[.:;!?)] /, "", st)
				if (st ~ /^(In audit|Audit|In off|Off) mode|^With Hornet off/) print "control\t1\t" substr(st, 1, 70)
				else print "control\t" (st ~ /(^|[^a-z])(audit|off)([^a-z]|$)|without Hornet/ ? 1 : 0) "\t" substr(st, 1, 70)
				if (st ~ /^The control of [a-z][a-z0-9_]*/) {
					c = st; sub(/^The control of /, "", c); sub(/[^a-z0-9_].*/, "", c)
					print "control_of\t" c
				}
				if (st ~ /^(The control of|Controls?)/) {
					n = split(st, ws, /[^a-z0-9_]+/)
					out = ""
					for (i = 1; i <= n; i++) if (ws[i] ~ /^[a-z][a-z0-9]*(_[a-z0-9]+)(_[a-z0-9]+)/) out = out " " ws[i]
					if (out != "") print "names\t" trim(out)
				}
				t = substr(t, RSTART + RLENGTH)
			} else t = ""
		}
	}
}
'

# case_facts TREE NAME KERNEL: CONTROL_AWK's lines for the case, cached.
declare -A FACTS=()
case_facts() {
	local tree=$1 name=$2 kernel=$3 f libs=() lib seen
	local key="$tree|$name|$kernel"
	if [ -z "${FACTS[$key]+x}" ]; then
		f=$tree/tests/vm/cases/$name.sh
		# The *_lib.sh files it sources, and theirs.
		seen=" "
		local todo=("$f")
		while [ ${#todo[@]} -gt 0 ]; do
			lib=${todo[0]}
			todo=("${todo[@]:1}")
			while read -r l; do
				l=$tree/tests/vm/cases/$l
				if [ ! -f "$l" ] || [[ $seen == *" $l "* ]]; then
					continue
				fi
				seen+="$l "
				libs=("$l" "${libs[@]}")
				todo+=("$l")
			done < <(sed -n 's|^\. "\$(dirname "\$0")/\([a-z0-9_]*_lib\.sh\)"$|\1|p' "$lib")
		done
		# (In a command substitution a failure here would only look like
		# a case without a control: it is kept for the end instead.)
		FACTS[$key]=$(awk -v kernel="$kernel" "$CONTROL_AWK" "${libs[@]}" "$f" 2>"$tmp/awk.err") ||
			{ echo "$name ($kernel): $(cat "$tmp/awk.err")" >>"$tmp/awk-errors"; }
	fi
	printf '%s\n' "${FACTS[$key]}"
}

# fact FACTS KIND [FIELD]: the lines (or one tab-separated field) of a kind.
fact() {
	printf '%s\n' "$1" | awk -F'\t' -v k="$2" -v n="${3:-0}" '$1 == k { print (n ? $n : $0) }'
}

# work_in FACTS MODE...: the first "line N, MODE (HOW)" that works in one of
# the modes, or nothing.
work_in() {
	local facts=$1 m line
	shift
	for m in "$@"; do
		line=$(printf '%s\n' "$facts" | awk -F'\t' -v m="$m" '$1 == "work" && $2 == m { print m " at line " $3 " (" $4 ")"; exit }')
		[ -z "$line" ] || { echo "$line"; return; }
	done
}

# control_rule TREE NAME KERNEL: print the rule the case meets and why;
# status 1, with why not, if it meets none.
control_rule() {
	local tree=$1 name=$2 kernel=$3 facts ctl enf aoff ann y ofacts x
	facts=$(case_facts "$tree" "$name" "$kernel")
	ctl=$(fact "$facts" control | awk -F'\t' '$2 == 1 { print $3; exit }')
	enf=$(work_in "$facts" enforce)
	aoff=$(work_in "$facts" audit off)
	ann=$(fact "$facts" annotation 2)
	if [ -n "$ctl" ] && [ -n "$enf" ] && [ -n "$aoff" ]; then
		if [ -n "$ann" ]; then
			echo "hornet-off, and an annotation it does not need: remove '# control-without-hornet-off: $ann'"
			return 1
		fi
		echo "hornet-off: $enf, $aoff; header: \"${ctl:0:50}...\""
		return 0
	fi
	# companion: this case names Y, whose header says it is the control
	# of this case; or this case is that Y.
	for y in $(fact "$facts" names 2); do
		if [ "$y" = "$name" ] || [ ! -f "$tree/tests/vm/cases/$y.sh" ]; then
			continue
		fi
		ofacts=$(case_facts "$tree" "$y" "$kernel")
		if [ "$(fact "$ofacts" control_of 2)" = "$name" ] && [ -n "$enf" ] &&
		   [ -n "$(work_in "$ofacts" audit off)" ]; then
			echo "companion: $enf; its control is $y: $(work_in "$ofacts" audit off)"
			return 0
		fi
	done
	x=$(fact "$facts" control_of 2)
	if [ -n "$x" ] && [ -f "$tree/tests/vm/cases/$x.sh" ] && [ -n "$aoff" ]; then
		ofacts=$(case_facts "$tree" "$x" "$kernel")
		if fact "$ofacts" names 2 | tr ' ' '\n' | grep -qx "$name" &&
		   [ -n "$(work_in "$ofacts" enforce)" ]; then
			echo "companion: the control of $x, which works in enforce: $aoff"
			return 0
		fi
	fi
	if [ -n "$ann" ]; then
		echo "annotated: $ann"
		return 0
	fi
	local why=()
	[ -n "$ctl" ] || why+=("no header sentence states a control in audit or off")
	[ -n "$enf" ] || why+=("no work with Hornet in enforce")
	[ -n "$aoff" ] || why+=("no work with Hornet in audit or off")
	local IFS=';'
	echo "NO CONTROL: ${why[*]}"
	return 1
}

NESTED=hornet_loader_cannot_start_a_nested_run

# check_tree TREE: check every citation of TREE's docs; print one line per
# cited case and kernel; status 1 if any check failed.
check_tree() {
	local tree=$1 kind name where why clause rc=0 out kernel label
	local -A done_=()
	citations "$tree" >"$tmp/cites" || return 1
	while IFS=$'\037' read -r kind name where why clause; do
		case "$kind" in
		dangling)
			echo "FAIL dangling citation $name ($where): $why"
			rc=1
			continue
			;;
		vm) kernel=6.12 label=vm/$name
			grep -qx '# vm-kernel: 7.3' "$tree/tests/vm/cases/$name.sh" && kernel=7.3 ;;
		vm73) kernel=7.3 label=vm73/$name ;;
		*)
			[ -n "${done_[$kind/$name]:-}" ] ||
				echo "--   $kind/$name: it exists; not a VM case, so no control is checked"
			done_[$kind/$name]=1
			continue
			;;
		esac
		if [ "$name" = "$NESTED" ]; then
			if ! control_rule "$tree" "$name" "$kernel" | grep -q '^\(hornet-off\|companion\)' &&
			   ! [[ $clause =~ by\ the\ core.*not\ (by\ )?Hornet ]]; then
				echo "FAIL $label is cited ($where) for a Hornet guarantee, but it has no Hornet-off control: its nested_run=-22 is bpf_sys_bpf()'s and holds with Hornet off (issue 32, item 3); cite it as the core's refusal (\"by the core, not Hornet\") or give it a control"
				rc=1
			fi
		fi
		[ -z "${done_[$label]:-}" ] || continue
		done_[$label]=1
		if out=$(control_rule "$tree" "$name" "$kernel"); then
			echo "ok   $label: $out"
		else
			echo "FAIL $label: $out"
			rc=1
		fi
	done <"$tmp/cites"
	return $rc
}

# --- the checker fires: synthetic trees ----------------------------------

# Every case's name has the shape a citation is recognised by.
for f in "$ROOT"/tests/vm/cases/*.sh; do
	n=$(basename "$f" .sh)
	[[ $n == *_lib ]] || [[ $n =~ $CASE_SHAPE ]] ||
		fail "the case $n is not shaped like a case name ($CASE_SHAPE): citations of it would be missed"
done

# mktree DIR: a tree with docs/Hornet.rst (a claims table whose Cases
# column holds $CELL) and the cases written after it.
mktree() {
	local d=$1
	rm -rf "$d"
	mkdir -p "$d/docs" "$d/tests/vm/cases" "$d/tests/host" "$d/security/hornet"
	printf 'NAME: reason\n' >"$d/tests/vm/one-kernel.list"
	cat >"$d/docs/Hornet.rst" <<-EOF
	Claims and the attacks that test them
	=====================================

	.. list-table::
	   :header-rows: 1
	   :widths: 22 40 38

	   * - Guarantee
	     - Attacks
	     - Cases
	   * - A guarantee
	     - an attack with \`\`fd_array\`\`
	     - $CELL
	EOF
	cat >"$d/tests/vm/cases/hornet_lib.sh" <<-'EOF'
	set_mode() {
		_old=$(hornet_mode)
		audit_mark
		expect_errno 0 hornet_write "$HORNET_FS/mode" "$1"
		expect_eq "mode after writing $1" "$(hornet_mode)" "$1"
	}
	EOF
}
# mkcase TREE NAME [HEADER-LINE...] -- CODE-LINE...: a case sourcing hornet_lib.sh.
mkcase() {
	local d=$1 name=$2
	shift 2
	{
		echo "# vm-append: hornet.mode=enforce"
		while [ $# -gt 0 ] && [ "$1" != -- ]; do echo "# $1"; shift; done
		shift
		echo '. "$(dirname "$0")/hornet_lib.sh"'
		echo 'hornet_begin'
		printf '%s\n' "$@"
	} >"$d/tests/vm/cases/$name.sh"
}
# expect_check WHAT STATUS PATTERN: check_tree on $T exits STATUS and
# prints a line with PATTERN.
expect_check() {
	local what=$1 want=$2 pat=$3 got
	run_rc got check_tree "$T" >"$tmp/check.out" 2>&1
	[ "$got" = "$want" ] || { sed 's/^/  | /' "$tmp/check.out" >&2; fail "self-check, $what: status $got, want $want"; }
	expect_grep "self-check, $what" "$pat" "$tmp/check.out"
}
T=$tmp/tree
LOAD='expect_load_refused $EPERM --unsigned --prog-name h_x'
ALOAD='expect_load_ok --unsigned --prog-name h_x'

# A case that refuses in enforce and shows nothing else.
CELL='``hornet_x_refused_in_enforce``'
mktree "$T"
mkcase "$T" hornet_x_refused_in_enforce "A load is refused." -- "$LOAD"
expect_check "a case without a control" 1 "FAIL vm/hornet_x_refused_in_enforce: NO CONTROL"
# ... with its control in the comment only.
mkcase "$T" hornet_x_refused_in_enforce "A load is refused." "Control: in audit mode it loads." -- "$LOAD"
expect_check "a control in the comment only" 1 "FAIL vm/hornet_x_refused_in_enforce: NO CONTROL: no work with Hornet in audit or off"
# ... and in the code: it passes.
mkcase "$T" hornet_x_refused_in_enforce "A load is refused." "Control: in audit mode it loads." -- \
	"$LOAD" "set_mode audit" "$ALOAD"
expect_check "a control in comment and code" 0 "ok   vm/hornet_x_refused_in_enforce: hornet-off"
# ... through a function of the case, and an echo to the mode file.
mkcase "$T" hornet_x_refused_in_enforce "Control: with Hornet off it loads." -- \
	"to() {" "	echo \"\$1\" >\"\$HORNET_FS/mode\"" "}" "$LOAD" "to off" "$ALOAD"
expect_check "a control through a function" 0 "ok   vm/hornet_x_refused_in_enforce: hornet-off"
# ... but not on a kernel branch the case's kernel does not take.
mkcase "$T" hornet_x_refused_in_enforce "Control: in audit mode it loads." -- \
	"$LOAD" 'case "$(uname -r)" in' '7.*)' "	set_mode audit" "	$ALOAD" "	;;" "esac"
expect_check "a control on 7.3's branch only" 1 "NO CONTROL: no work with Hornet in audit or off"
CELL='``vm73/hornet_x_refused_in_enforce``'
mktree "$T"
mkcase "$T" hornet_x_refused_in_enforce "Control: in audit mode it loads." -- \
	"$LOAD" 'case "$(uname -r)" in' '7.*)' "	set_mode audit" "	$ALOAD" "	;;" "esac"
expect_check "a control on 7.3's branch, cited on 7.3" 0 "ok   vm73/hornet_x_refused_in_enforce: hornet-off"
CELL='``hornet_x_refused_in_enforce``'
mktree "$T"
# A case that sets audit before it does anything in enforce.
mkcase "$T" hornet_x_refused_in_enforce "Control: in audit mode it loads." -- \
	"set_mode audit" "$ALOAD"
expect_check "audit before any enforce work" 1 "NO CONTROL: no work with Hornet in enforce"
# A case that boots in audit and stays there.
sed -i 's/hornet.mode=enforce/hornet.mode=audit/' "$T/tests/vm/cases/hornet_x_refused_in_enforce.sh"
expect_check "a case wholly in audit" 1 "NO CONTROL: no work with Hornet in enforce"
# An annotated control of another kind passes; an annotation on a case
# with a Hornet-off control fails.
mkcase "$T" hornet_x_refused_in_enforce "control-without-hornet-off: the same load without the fault loads" \
	"A load is refused." -- "$LOAD"
expect_check "an annotated control" 0 "ok   vm/hornet_x_refused_in_enforce: annotated: the same load without the fault loads"
mkcase "$T" hornet_x_refused_in_enforce "control-without-hornet-off: the same load without the fault loads" \
	"Control: in audit mode it loads." -- "$LOAD" "set_mode audit" "$ALOAD"
expect_check "an annotation not needed" 1 "an annotation it does not need"
# Companions: the refused case names its control, which names it back.
CELL='``hornet_x_refused_in_enforce``, ``hornet_x_lands_without_hornet``'
mktree "$T"
mkcase "$T" hornet_x_refused_in_enforce "A load is refused. Control: hornet_x_lands_without_hornet shows it land." -- "$LOAD"
mkcase "$T" hornet_x_lands_without_hornet "The control of hornet_x_refused_in_enforce: with Hornet off it lands." -- \
	"set_mode off" "$ALOAD"
expect_check "companions" 0 "ok   vm/hornet_x_lands_without_hornet: companion: the control of hornet_x_refused_in_enforce"
expect_grep "self-check, companions" "its control is hornet_x_lands_without_hornet: off at line" "$tmp/check.out"
mkcase "$T" hornet_x_lands_without_hornet "With Hornet off it lands." -- "set_mode off" "$ALOAD"
expect_check "a companion that does not name the case" 1 "FAIL vm/hornet_x_refused_in_enforce: NO CONTROL"
# Dangling citations: no such case; a vm73/ run the list keeps off 7.3.
CELL='``hornet_x_nowhere_to_be_found``, ``vm73/hornet_x_refused_in_enforce``'
mktree "$T"
mkcase "$T" hornet_x_refused_in_enforce "Control: in audit mode it loads." -- "$LOAD" "set_mode audit" "$ALOAD"
expect_check "a dangling citation" 1 "FAIL dangling citation hornet_x_nowhere_to_be_found"
expect_grep "self-check, a cited case checked on 7.3" "ok   vm73/hornet_x_refused_in_enforce: hornet-off" "$tmp/check.out"
echo "hornet_x_refused_in_enforce: a reason" >>"$T/tests/vm/one-kernel.list"
expect_check "a vm73/ citation of a case kept off 7.3" 1 "one-kernel.list keeps hornet_x_refused_in_enforce off 7.3"
# The nested-run case, annotated, in audit throughout, cited for a Hornet
# guarantee; then as the core's refusal.
nested_case() {
	mkcase "$T" "$NESTED" "control-without-hornet-off: the same helper call freezes a map" -- \
		'expect_eq nested "$(hornet_load nested)" "nested_run=-22 freeze=0"'
	sed -i 's/hornet.mode=enforce/hornet.mode=audit/' "$T/tests/vm/cases/$NESTED.sh"
}
CELL="a nested run (\`\`$NESTED\`\`)"
mktree "$T"
nested_case
expect_check "the nested-run case cited for Hornet" 1 "FAIL vm/$NESTED is cited"
CELL="a nested run is refused by the core, not Hornet (\`\`$NESTED\`\`)"
mktree "$T"
nested_case
expect_check "the nested-run case cited as the core's" 0 "ok   vm/$NESTED: annotated"

[ ! -s "$tmp/awk-errors" ] || fail "the mode follower failed on a synthetic case: $(cat "$tmp/awk-errors")"

# --- the tree's docs -----------------------------------------------------

for h in 'Cases' 'Why, and the case that shows it' 'shown on 7.3 by'; do
	n=$(awk "$TABLES_AWK" "$ROOT/docs/Hornet.rst" | awk -F'\037' -v h="$h" '$2 == h' | wc -l)
	[ "$n" -ge 10 ] || fail "docs/Hornet.rst: only $n literals in the column '$h': is the table still there, and read?"
done
run_rc rc check_tree "$ROOT" >"$tmp/report" 2>&1
cat "$tmp/report"
[ ! -s "$tmp/awk-errors" ] || fail "the mode follower failed: $(cat "$tmp/awk-errors")"
n=$(grep -c '^ok ' "$tmp/report" || true)
if [ "$rc" != 0 ]; then
	# The failures again, one line a case with its kernels, last (tests/run
	# shows a failing test's last lines).
	echo "--- failing: $(grep -c '^FAIL' "$tmp/report") of the citations above; $n pass"
	grep '^FAIL' "$tmp/report" | sed -n 's/^FAIL \(vm[0-9]*\)\/\([a-z0-9_]*\)\([: ]\).*/\2 \1/p' |
		awk '{ k[$1] = k[$1] (k[$1] == "" ? "" : ", ") $2; if (!($1 in o)) o[$1] = ++n; name[o[$1]] = $1 }
		END { for (i = 1; i <= n; i++) print "    " name[i] " (" k[name[i]] ")" }'
	{ grep '^FAIL dangling' "$tmp/report" || true; } | sed 's/^FAIL /    /'
	fail "cited cases without a control, or dangling citations (above)"
fi
[ "$n" -ge 60 ] || fail "only $n cited cases found: the tables were not read"
echo PASS
