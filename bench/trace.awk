#!/usr/bin/awk -f
# Sums up an AGREP_GPU_TRACE file (src/scan.c: a line a device scan: device,
# bytes, copy start, copy end, kernel start, kernel end on the device's clock,
# and the host's clock when it saw the scan done, all in ns), a line a device:
# scans, GB, the mean copy and kernel ms, the span from the first copy (or
# kernel) to the last kernel's end, the share of it with a kernel running
# (intervals merged), the share with a copy running, and GB/s over the span.
#   sort -t'	' -k1,1 -k5,5n TRACE | awk -F'\t' -f bench/trace.awk
BEGIN { FS = "\t" }
function flush() {
	if (n == 0) return
	printf "%s: %d scans, %.2f GB, copy %.2f ms, kernel %.2f ms; span %.3f s, kernels busy %.0f%%, copies busy %.0f%%, %.2f GB/s over the span\n",
	    dev, n, bytes / 1e9, csum / n / 1e6, ksum / n / 1e6, (last - first) / 1e9,
	    100 * kbusy / (last - first), 100 * cbusy / (last - first),
	    bytes / (last - first)
}
$1 != dev { flush(); dev = $1; n = 0; bytes = 0; csum = 0; ksum = 0;
	first = 0; last = 0; kbusy = 0; kend = 0; cbusy = 0; cend = 0 }
{
	n++; bytes += $2; ksum += $6 - $5
	s = $3 > 0 ? $3 : $5
	if (first == 0 || s < first) first = s
	if ($6 > last) last = $6
	# kernels, in start order (the input is sorted by kernel start)
	if ($5 >= kend) { kbusy += $6 - $5; kend = $6 }
	else if ($6 > kend) { kbusy += $6 - kend; kend = $6 }
	if ($3 > 0) {
		csum += $4 - $3
		# copies start in about kernel order: merged the same way
		if ($3 >= cend) { cbusy += $4 - $3; cend = $4 }
		else if ($4 > cend) { cbusy += $4 - cend; cend = $4 }
	}
}
END { flush() }
