# fish completion for agrep-gpu(1).  Installed as
# share/fish/vendor_completions.d/agrep-gpu.fish.

# The --device values: the keywords and the indices that
# `agrep-gpu --list-devices` prints ("N: platform / device (...)"); only the
# keywords when that command is missing or fails.
function __agrep_gpu_devices
    printf '%s\t%s\n' \
        auto 'all GPUs if several, else the first GPU, else the CPU' \
        all 'every OpenCL device' \
        cpu 'the CPU OpenCL device (POCL)' \
        gpu 'the first GPU' \
        host 'no OpenCL, the host matcher'
    set -l cmd (commandline -opc)[1]
    command -sq -- "$cmd"; or set cmd agrep-gpu
    command -sq -- "$cmd"; or return 0
    command $cmd --list-devices 2>/dev/null | string replace -rf '^\s*(\d+):\s*(.*)$' '$1\t$2'
    return 0
end

set -l c complete -c agrep-gpu

# Matching
$c -s k -l max-errors -x -d 'Allow NUM errors'
$c -s e -l regexp -x -d 'Use PATTERN (repeatable)'
$c -s f -l file -r -F -d 'Take patterns from FILE, one per line'
$c -s i -l ignore-case -d 'Fold case'
$c -s y -d 'Fold case (as -i)'
$c -l no-ignore-case -d 'Do not fold case'
$c -l utf8 -d 'An error is one UTF-8 character'
$c -l bytes -d 'An error is one byte'
$c -s v -l invert-match -d 'Select non-matching lines'
$c -s w -l word-regexp -d 'Match starts and ends at word boundaries'
$c -s x -l line-regexp -d 'The whole line is within k errors'
$c -s F -l fixed-strings -d 'Patterns are strings'
$c -s E -l extended-regexp -d 'Patterns are extended regular expressions'
$c -s G -l basic-regexp -d 'Patterns are basic regular expressions (default)'
$c -l dna -d 'DNA patterns: IUPAC codes, both strands, FASTA/FASTQ records'
$c -l strand -x -a 'both + -' -d 'With --dna, the strands searched'
$c -l records -x -a 'auto fasta fastq lines' -d 'How inputs are cut into records'
$c -l hits -a 'tsv bed json' -d 'Print a row per site (the hit table)'
$c -l delimiter -x -d 'Records of text start at a line holding DELIM'
$c -l no-indels -d 'Substitutions only (Hamming distance)'
$c -l insert-cost -x -a '1 2 3 off' -d 'Cost of a text character not in the pattern'
$c -l delete-cost -x -a '1 2 3 off' -d 'Cost of a pattern character missing from the text'
$c -l substitute-cost -x -a '1 2 3 off' -d 'Cost of a substituted character'
$c -l iupac -d 'IUPAC codes in patterns stand for their bases'
$c -s P -l perl-regexp -d 'Refused: Perl expressions are not supported'
$c -s z -l null-data -d 'Records end in NUL, not newline'

# Output
$c -s c -l count -d 'Print only a count of selected lines per file'
$c -s o -l only-matching -d 'Print only the matched parts'
$c -l color -l colour -x -a 'never always auto' -d 'Highlight matches (--color=WHEN)'
$c -l show-cost -d 'Prefix each line with its least cost'
$c -l show-edits -d 'Print the edit script (CIGAR) of each match'
$c -l json -d 'Print JSON Lines in ripgrep\'s schema'
$c -l best-match -d 'Print only the lines of least cost'
$c -s A -l after-context -x -d 'Print NUM lines after each selected line'
$c -s B -l before-context -x -d 'Print NUM lines before each selected line'
$c -s C -l context -x -d 'Print NUM lines before and after'
$c -s l -l files-with-matches -d 'Print only names of files with selected lines'
$c -s L -l files-without-match -d 'Print only names of files with none'
$c -s n -l line-number -d 'Prefix each line with its line number'
$c -s b -l byte-offset -d 'Prefix each line with its byte offset'
$c -s H -l with-filename -d 'Prefix each line with the file name'
$c -s h -l no-filename -d 'Never prefix the file name'
$c -l label -x -d 'Name standard input LABEL'
$c -s Z -l null -d 'Print NUL after file names'
$c -s m -l max-count -x -d 'Stop a file after NUM selected lines'
$c -s q -l quiet -l silent -d 'Print nothing; exit 0 at the first match'
$c -s s -l no-messages -d 'No messages about unreadable files'
$c -l line-buffered -d 'Flush output after every line'
$c -s T -l initial-tab -d 'Put a tab before the line content'
$c -l group-separator -x -d 'Print SEP between context groups'
$c -l no-group-separator -d 'Print no separator between context groups'

# Files
$c -s r -l recursive -d 'Search directories recursively'
$c -s R -l dereference-recursive -d 'Search recursively, following symbolic links'
$c -s d -l directories -x -a 'read skip recurse' -d 'What to do with directories'
$c -s D -l devices -x -a 'read skip' -d 'What to do with devices, FIFOs and sockets'
$c -l include -x -d 'With -r, search only files matching GLOB'
$c -l exclude -x -d 'With -r, skip files matching GLOB'
$c -l exclude-dir -x -d 'With -r, skip directories matching GLOB'
$c -l exclude-from -r -F -d 'Skip files matching any glob in FILE'
$c -l decompress -d 'Search the contents of compressed inputs'
$c -l search-zip -d 'Search the contents of compressed inputs'
$c -s a -l text -d 'Search binary files as text'
$c -l binary-files -x -a 'binary text without-match' -d 'How to treat binary files'
$c -s I -d 'Skip binary files (--binary-files=without-match)'
$c -s U -l binary -d 'Accepted, no effect'

# Devices and the rest
$c -s j -l threads -x -d 'Use NUM host threads'
$c -l device -x -a '(__agrep_gpu_devices)' -d 'The OpenCL device to use'
$c -l list-devices -d 'List OpenCL devices and exit'
$c -l help -d 'Print the help and exit'
$c -s V -l version -d 'Print the version and exit'
