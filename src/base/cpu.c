/*
 * cpu.c: which instruction sets the process may use, decided once.
 *
 * The level is the highest of cpu.h's that the CPU (and the kernel's saved
 * state) supports, lowered to AGREP_GPU_ISA when that is set: "baseline",
 * "avx2", "avx512bw" or "avx512" (every AVX-512 level; the same as
 * "native").  A cap above the CPU's level changes nothing.  Engines ask
 * cpu_has(); nothing else asks the CPU.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "util.h"

static const char *const level_names[CPU_NLEVELS] = {
	"baseline", "avx2", "avx512bw", "avx512"
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int level;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

/* The CPU's own level, from two CPUID leaves and the OS's saved state
 * (XCR0).  Not __builtin_cpu_supports: libgcc's detection, run as a
 * constructor in every process that uses it, asks CPUID a dozen times,
 * and in a virtual machine each one traps: 0.1-0.2 ms of a 1.2 ms run. */
static int
native_level(void)
{
	unsigned a, b, c, d, lo, hi;

	if (!__get_cpuid(1, &a, &b, &c, &d) ||
	    !(c & bit_OSXSAVE) || !(c & bit_AVX))
		return CPU_BASELINE;
	__asm__ volatile ("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((lo & 0x06) != 0x06)	/* the XMM and YMM state */
		return CPU_BASELINE;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & bit_AVX2))
		return CPU_BASELINE;
	/* (opmask, the upper ZMM halves, ZMM16-31) */
	if ((lo & 0xe0) != 0xe0 || !(b & bit_AVX512F) || !(b & bit_AVX512BW))
		return CPU_AVX2;
	if (!(c & bit_AVX512VBMI) || !(c & bit_AVX512VPOPCNTDQ))
		return CPU_AVX512BW;
	return CPU_AVX512VBMI;
}
#else
static int
native_level(void)
{
	return CPU_BASELINE;
}
#endif

/* The level AGREP_GPU_ISA names, or CPU_NLEVELS - 1 when unset. */
static int
cap_level(void)
{
	const char *v = getenv("AGREP_GPU_ISA");

	if (v == NULL || *v == '\0' || strcmp(v, "native") == 0)
		return CPU_NLEVELS - 1;
	for (int i = 0; i < CPU_NLEVELS; i++)
		if (strcmp(v, level_names[i]) == 0)
			return i;
	fatalx("AGREP_GPU_ISA: unknown instruction set '%s' (baseline, "
	    "avx2, avx512bw, avx512 or native)", v);
}

static void
decide(void)
{
	int n = native_level(), c = cap_level();

	level = n < c ? n : c;
}

/* The level in use (thread-safe; decided on the first call). */
int
cpu_level(void)
{
	pthread_once(&once, decide);
	return level;
}

/* A level's name, as AGREP_GPU_ISA takes it. */
const char *
cpu_level_name(int l)
{
	return l >= 0 && l < CPU_NLEVELS ? level_names[l] : "?";
}
