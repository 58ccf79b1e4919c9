#!/bin/sh
# embed.sh NAME FILE: print FILE as a C string constant NAME, prefixed with a
# #line directive so that kernel compiler messages name the .cl file.
set -e
name=$1 file=$2
printf '/* Generated from %s by tools/embed.sh: do not edit. */\n' "$file"
printf 'const char %s[] =\n' "$name"
printf '"#line 1 \\"%s\\"\\n"\n' "$(basename "$file")"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$file"
printf ';\n'
