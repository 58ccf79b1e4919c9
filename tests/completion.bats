#!/usr/bin/env bats
# Shell completions (completions/): the bash script completes option names
# and values, with and without the bash-completion package; every option in
# agrep-gpu.c's table is in the bash, zsh and fish scripts; zsh and fish
# parse theirs (when installed).

load test_helper
bats_require_minimum_version 1.5.0

BASH_COMPLETION=/usr/share/bash-completion/bash_completion

# comp yes|no LINE: the completions bash offers for LINE (the cursor at its
# end), one per line; yes loads the bash-completion package first.  LINE is
# split as readline splits it: at spaces, and "=" is a word of its own.
comp() {
	bash -c '
		if [ "$1" = yes ]; then . "$4" || exit 3; fi
		. "$3/completions/agrep-gpu.bash" || exit 3
		complete -p agrep-gpu >/dev/null || exit 3
		COMP_LINE=$2 COMP_POINT=${#2}
		read -ra COMP_WORDS <<<"${2//=/ = }"
		if [[ $2 == *" " ]]; then COMP_WORDS+=(""); fi
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=()
		_agrep_gpu
		if ((${#COMPREPLY[@]})); then printf "%s\n" "${COMPREPLY[@]}"; fi
	' comp "$1" "$2" "$TOP" "$BASH_COMPLETION"
}

# Both ways when the bash-completion package is installed, else plain bash.
modes() {
	if [ -f "$BASH_COMPLETION" ]; then echo no yes; else echo no; fi
}

# The long option names of agrep-gpu.c's long_opts table, one per line.
long_options() {
	sed -n '/long_opts\[\] *= *{/,/^};/p' "$TOP/agrep-gpu.c" |
	    grep -oE '^[[:space:]]*\{[[:space:]]*"[a-z0-9-]+"' | grep -oE '[a-z0-9-]+'
}

# The letters of agrep-gpu.c's short_opts string (not the digits of -NUM).
short_options() {
	sed -n '/short_opts\[\] *=/,/;/p' "$TOP/agrep-gpu.c" |
	    grep -oE '"[^"]*"' | tr -d '":0-9\n' | fold -w1
}

@test "the option table and the short options are found in agrep-gpu.c" {
	run -0 long_options
	assert_line max-errors
	assert_line device
	assert_line help
	[ "${#lines[@]}" -ge 40 ] || fail "only ${#lines[@]} long options found"
	run -0 short_options
	assert_line k
	assert_line V
	[ "${#lines[@]}" -ge 30 ] || fail "only ${#lines[@]} short options found"
}

@test "bash: --dev offers --device= and --devices=" {
	for m in $(modes); do
		run -0 comp "$m" 'agrep-gpu --dev'
		assert_line -- --device=
		assert_line -- --devices=
		[ "${#lines[@]}" -eq 2 ] || fail "$m: $output"
	done
}

@test "bash: --color= and --colour= offer never, always and auto" {
	for m in $(modes); do
		run -0 comp "$m" 'agrep-gpu -k1 --color='
		assert_equal "$(sort <<<"$output" | tr '\n' ' ')" "always auto never "
		run -0 comp "$m" 'agrep-gpu --colour=al'
		assert_output always
	done
}

@test "bash: --device= offers the keywords and the indices from --list-devices" {
	run -0 agrep-gpu --list-devices
	want=$(printf '%s\n' "$output" | sed -n 's/^ *\([0-9][0-9]*\):.*/\1/p')
	[ -n "$want" ] || fail "no device index in: $output"
	for m in $(modes); do
		for line in 'agrep-gpu --device=' 'agrep-gpu --device '; do
			run -0 comp "$m" "$line"
			for w in auto all cpu gpu host $want; do
				assert_line "$w"
			done
		done
	done
}

@test "bash: --device= offers only the keywords when agrep-gpu --list-devices fails" {
	mkdir -p "$BATS_TEST_TMPDIR/fake"
	printf '#!/bin/sh\necho "0: from stdout" ; echo oops >&2; exit 2\n' \
	    > "$BATS_TEST_TMPDIR/fake/agrep-gpu"
	chmod +x "$BATS_TEST_TMPDIR/fake/agrep-gpu"
	PATH="$BATS_TEST_TMPDIR/fake:$PATH"
	for m in $(modes); do
		run -0 comp "$m" 'agrep-gpu --device='
		assert_equal "$(sort <<<"$output" | tr '\n' ' ')" "all auto cpu gpu host "
	done
}

@test "bash: values of -d, -D and --binary-files; files for -f and operands" {
	cd "$BATS_TEST_TMPDIR"
	touch patterns.txt input.txt
	for m in $(modes); do
		run -0 comp "$m" 'agrep-gpu -d '
		assert_equal "$(tr '\n' ' ' <<<"$output")" "read skip recurse "
		run -0 comp "$m" 'agrep-gpu --directories=re'
		assert_equal "$(tr '\n' ' ' <<<"$output")" "read recurse "
		run -0 comp "$m" 'agrep-gpu -D '
		assert_equal "$(tr '\n' ' ' <<<"$output")" "read skip "
		run -0 comp "$m" 'agrep-gpu --binary-files=w'
		assert_output without-match
		run -0 comp "$m" 'agrep-gpu -f pat'
		assert_output patterns.txt
		run -0 comp "$m" 'agrep-gpu -k1 hello inp'
		assert_output input.txt
		run -0 comp "$m" 'agrep-gpu -k '
		assert_output ''
	done
}

@test "bash: every option in agrep-gpu.c is offered" {
	run -0 comp no 'agrep-gpu --'
	offered=$output
	run -0 comp no 'agrep-gpu -'
	offered_short=$output
	missing=
	for o in $(long_options); do
		grep -qxE -- "--$o=?" <<<"$offered" || missing+=" --$o"
	done
	for c in $(short_options); do
		grep -qx -- "-$c" <<<"$offered_short" || missing+=" -$c"
	done
	[ -z "$missing" ] || fail "not completed by completions/agrep-gpu.bash:$missing"
}

@test "zsh and fish: every option in agrep-gpu.c is in the script" {
	zsh_f="$TOP/completions/_agrep-gpu"
	fish_f="$TOP/completions/agrep-gpu.fish"
	missing=
	for o in $(long_options); do
		grep -qE -- "(^|[^a-z0-9-])--$o([^a-z0-9-]|\$)" "$zsh_f" ||
		    missing+=" zsh:--$o"
		grep -qE -- "-l $o([^a-z0-9-]|\$)" "$fish_f" || missing+=" fish:--$o"
	done
	for c in $(short_options); do
		grep -qE -- "(^|[^a-zA-Z0-9-])-$c([^a-zA-Z0-9-]|\$)" "$zsh_f" ||
		    missing+=" zsh:-$c"
		grep -qE -- "-s $c( |\$)" "$fish_f" || missing+=" fish:-$c"
	done
	[ -z "$missing" ] || fail "missing:$missing"
}

@test "zsh parses _agrep-gpu" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run -0 zsh -n "$TOP/completions/_agrep-gpu"
	assert_output ''
}

@test "fish parses agrep-gpu.fish and completes --device= and --color=" {
	command -v fish >/dev/null || skip "fish is not installed"
	run -0 fish -n "$TOP/completions/agrep-gpu.fish"
	assert_output ''
	run -0 fish --no-config -c "source '$TOP/completions/agrep-gpu.fish'
		complete -C'agrep-gpu --dev'; complete -C'agrep-gpu --device='
		complete -C'agrep-gpu --color='"
	assert_line --partial $'--device\t'
	assert_line --partial $'--devices\t'
	for w in auto all cpu gpu host 0; do
		assert_line --partial "--device=$w"$'\t'
	done
	for w in never always auto; do
		assert_line --partial "--color=$w"$'\t'
	done
}
