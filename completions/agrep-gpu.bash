# bash completion for agrep-gpu(1)                         -*- shell-script -*-
# Installed as share/bash-completion/completions/agrep-gpu; also works when
# sourced into a plain bash without the bash-completion package.

# The --device values: the keywords and the indices that
# `agrep-gpu --list-devices` prints ("N: platform / device (...)"); only the
# keywords when that command is missing or fails.
_agrep_gpu_devices()
{
    local cmd=${1:-agrep-gpu} out line ids=
    [[ $cmd == \~/* ]] && cmd=$HOME/${cmd#\~/}
    type -P -- "$cmd" >/dev/null 2>&1 || cmd=agrep-gpu
    if type -P -- "$cmd" >/dev/null 2>&1; then
        if type -P timeout >/dev/null 2>&1; then
            out=$(timeout 10 "$cmd" --list-devices 2>/dev/null) || out=
        else
            out=$("$cmd" --list-devices 2>/dev/null) || out=
        fi
        while IFS= read -r line; do
            [[ $line =~ ^[[:space:]]*([0-9]+): ]] && ids+=" ${BASH_REMATCH[1]}"
        done <<<"$out"
    fi
    COMPREPLY=($(compgen -W "auto all cpu gpu host$ids" -- "$cur"))
}

_agrep_gpu_files()
{
    if declare -F _filedir >/dev/null; then
        _filedir
    else
        compopt -o filenames 2>/dev/null
        local IFS=$'\n'
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}

_agrep_gpu()
{
    local cur prev words cword split=false
    if declare -F _init_completion >/dev/null; then
        _init_completion -s || return
    else
        # Without bash-completion: split --opt=value ourselves ('=' is in
        # COMP_WORDBREAKS, so bash gives "--opt" "=" "value").
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${words[cword]}
        prev=${words[cword-1]}
        if [[ $cur == = ]]; then
            cur= split=true
        elif [[ $prev == = ]] && ((cword >= 2)); then
            prev=${words[cword-2]} split=true
        elif [[ $cur == --*=* ]]; then
            prev=${cur%%=*} cur=${cur#*=} split=true
        fi
    fi

    case $prev in
        -f | --file)
            _agrep_gpu_files
            return
            ;;
        -d | --directories)
            COMPREPLY=($(compgen -W 'read skip recurse' -- "$cur"))
            return
            ;;
        -D | --devices)
            COMPREPLY=($(compgen -W 'read skip' -- "$cur"))
            return
            ;;
        --binary-files)
            COMPREPLY=($(compgen -W 'binary text without-match' -- "$cur"))
            return
            ;;
        --records)
            COMPREPLY=($(compgen -W 'auto fasta fastq lines' -- "$cur"))
            return
            ;;
        --strand)
            COMPREPLY=($(compgen -W 'both + -' -- "$cur"))
            return
            ;;
        --insert-cost | --delete-cost | --substitute-cost)
            COMPREPLY=($(compgen -W '1 2 3 off' -- "$cur"))
            return
            ;;
        --device)
            _agrep_gpu_devices "${words[0]}"
            return
            ;;
        --color | --colour)
            # An optional argument: only in the same word, --color=WHEN.
            if $split; then
                COMPREPLY=($(compgen -W 'never always auto' -- "$cur"))
                return
            fi
            ;;
        --hits)
            if $split; then
                COMPREPLY=($(compgen -W 'tsv bed json' -- "$cur"))
                return
            fi
            ;;
        -e | --regexp | -k | --max-errors | -m | --max-count | -A | -B | -C | \
            --after-context | --before-context | --context | -j | --threads | \
            --label | --group-separator | --include | --exclude | --exclude-dir | \
            --delimiter)
            return
            ;;
    esac
    $split && return

    local long='--max-errors= --regexp= --file= --ignore-case --no-ignore-case
        --utf8 --bytes --dna --iupac --strand= --records= --hits --hits= --delimiter= --no-indels
        --insert-cost= --delete-cost= --substitute-cost=
        --invert-match --word-regexp --line-regexp --fixed-strings
        --extended-regexp --basic-regexp --perl-regexp --null-data
        --count --only-matching --color= --colour= --show-cost --show-edits --json --best-match
        --after-context= --before-context= --context= --files-with-matches
        --files-without-match --line-number --byte-offset --with-filename
        --no-filename --label= --null --max-count= --quiet --silent
        --no-messages --line-buffered --initial-tab --group-separator=
        --no-group-separator --recursive --dereference-recursive
        --directories= --devices= --include= --exclude= --exclude-dir=
        --exclude-from=
        --decompress --search-zip
        --text --binary-files= --binary --threads= --device= --list-devices
        --help --version'
    local short='-k -e -f -i -y -v -w -x -F -E -G -P -z -c -o -A -B -C -l -L
        -n -b -H -h -Z -m -q -s -T -r -R -d -D -a -I -U -j -V'

    if [[ $cur == --* ]]; then
        COMPREPLY=($(compgen -W "$long" -- "$cur"))
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$short $long" -- "$cur"))
    else
        _agrep_gpu_files
        return
    fi
    local w
    for w in "${COMPREPLY[@]}"; do
        if [[ $w == *= ]]; then
            compopt -o nospace 2>/dev/null
            break
        fi
    done
}
complete -F _agrep_gpu agrep-gpu

# ex: filetype=sh
